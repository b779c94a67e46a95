//===- gather-compile.cpp - From a model to a library in one command ------===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
//   gather-compile model.onnx                 -> model.so + model.h
//   gather-compile kernels.mlir --emit=obj -o k.o
//
// An ONNX model (.onnx) or MLIR (any other name) to a shared library, an
// object file, LLVM IR or the lowered MLIR (gather/Compiler/Compiler.h,
// docs/Deploying.md). A model with nodes gather does not lower has its
// gathers outlined into kernels, and a note lists the nodes left to the
// host.
//
//===----------------------------------------------------------------------===//

#include "gather/Compiler/Compiler.h"
#include "gather/Compiler/InputContext.h"
#include "gather/Support/ToolMain.h"

#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
namespace cl = llvm::cl;

static cl::OptionCategory category("gather-compile options");

static cl::opt<std::string> inputFile(cl::Positional, cl::Required,
                                      cl::desc("<model.onnx or input.mlir>"),
                                      cl::cat(category));
static cl::opt<std::string>
    outputFile("o",
               cl::desc("Output file (default: the input's name with .so, "
                        ".o, .ll or .mlir, in its directory; - for stdout)"),
               cl::value_desc("file"), cl::cat(category));
static cl::opt<gather::EmitKind>
    emit("emit", cl::desc("What to write"), cl::init(gather::EmitKind::Library),
         gather::getEnumOptionValues(gather::kEmitKindValues),
         cl::cat(category));
static cl::opt<std::string>
    headerFile("header",
               cl::desc("The C header of a library or object (default: the "
                        "output's name with .h; none for other outputs)"),
               cl::value_desc("file"), cl::cat(category));
static cl::opt<std::string>
    targetCpu("target-cpu",
              cl::desc("The CPU to compile for (LLVM's names, e.g. znver4, "
                       "skylake-avx512; default: this host's); the pipeline "
                       "option target-cpu"),
              cl::value_desc("cpu"), cl::cat(category));
static cl::opt<unsigned> optLevel("O", cl::Prefix, cl::init(3),
                                  cl::desc("LLVM optimization level, 0-3 "
                                           "(default 3)"),
                                  cl::value_desc("level"), cl::cat(category));

/// The default output: `input` with the extension of `kind`.
static std::string getDefaultOutput(llvm::StringRef input,
                                    gather::EmitKind kind) {
  llvm::SmallString<128> path(input == "-" ? "a" : input.str());
  const char *extension = "so";
  switch (kind) {
  case gather::EmitKind::MLIR:
    extension = "ll.mlir";
    break;
  case gather::EmitKind::LLVMIR:
    extension = "ll";
    break;
  case gather::EmitKind::Object:
    extension = "o";
    break;
  case gather::EmitKind::Library:
    break;
  }
  llvm::sys::path::replace_extension(path, extension);
  return path.str().str();
}

static int toolMain(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  gather::getPipelineOptionsFlag().addCategory(category);
  registerPassManagerCLOptions();
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(
      argc, argv,
      "gather-compile: an ONNX model or MLIR module to a shared library, an "
      "object, LLVM IR or MLIR\n\n"
      "  gather-compile model.onnx                  (model.so and model.h)\n"
      "  gather-compile kernels.mlir --emit=obj -o k.o\n"
      "  gather-compile model.onnx --pipeline-options='num-threads=1'\n\n"
      "A model with nodes gather does not lower has its gathers outlined "
      "into kernels of their own; the other nodes are left to the host.\n"
      "--help-hidden lists LLVM's and MLIR's options too.\n");

  gather::InputContext input;
  OwningOpRef<ModuleOp> module = input.read(inputFile);
  if (!module)
    return 1;

  gather::CompileOptions options;
  options.pipelineOptions = gather::getPipelineOptionsFlag();
  if (!targetCpu.empty()) {
    if (llvm::StringRef(options.pipelineOptions).contains("target-cpu")) {
      llvm::errs() << "gather-compile: error: --target-cpu and "
                      "--pipeline-options='target-cpu=...' both given\n";
      return 1;
    }
    options.pipelineOptions += " target-cpu=" + targetCpu;
  }
  options.optLevel = optLevel;
  options.emit = emit;
  options.outputFile = outputFile.empty() ? getDefaultOutput(inputFile, emit)
                                          : outputFile.getValue();
  bool native =
      emit == gather::EmitKind::Library || emit == gather::EmitKind::Object;
  if (native && headerFile.getNumOccurrences() == 0 &&
      options.outputFile != "-") {
    llvm::SmallString<128> header(options.outputFile);
    llvm::sys::path::replace_extension(header, "h");
    options.headerFile = header.str().str();
  } else {
    options.headerFile = headerFile;
  }
  // Writing over the input would lose it where the compile fails.
  for (llvm::StringRef written : {llvm::StringRef(options.outputFile),
                                  llvm::StringRef(options.headerFile)}) {
    bool same = false;
    if (inputFile != "-" && !written.empty() &&
        !llvm::sys::fs::equivalent(inputFile, written, same) && same) {
      llvm::errs() << "gather-compile: error: '" << written
                   << "' would be written over the input '" << inputFile
                   << "'\n";
      return 1;
    }
  }
  options.configurePassManager = [](PassManager &pm) {
    return applyPassManagerCLOptions(pm);
  };

  FailureOr<gather::ModelPartition> partition =
      gather::compileModule(*module, options);
  if (failed(partition))
    return 1;
  if (partition->outlined) {
    llvm::errs() << "gather-compile: note: left to the host ("
                 << partition->hostNodes.size() << " node"
                 << (partition->hostNodes.size() == 1 ? "" : "s") << "): ";
    constexpr size_t kListed = 12;
    for (auto [i, node] : llvm::enumerate(partition->hostNodes)) {
      if (i == kListed) {
        llvm::errs() << ", ... (" << partition->hostNodes.size() - kListed
                     << " more)";
        break;
      }
      llvm::errs() << (i ? ", " : "") << node;
    }
    llvm::errs() << "; gather compiled each GatherElements into a kernel of "
                    "its own (declared in the header)\n";
  }
  return 0;
}

// Out of memory and fatal errors as located errors, a large stack.
int main(int argc, char **argv) {
  return gather::runToolMain(argc, argv, toolMain);
}
