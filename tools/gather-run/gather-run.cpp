//===- gather-run.cpp - Run a compiled function on real inputs ------------===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
//   gather-run model.so --function=main_graph_gather_0 \
//     --input=2x4xf32=@data.npy --input=@indices.npy --output=@y.npy
//   gather-run kernels.mlir --input=2x2xf32=1,2,3,4 --input=2x2xi64=0,0,1,0
//   gather-run model.onnx --input=@x.pb --expected_output=@y.pb
//   gather-run model.so --input=... --benchmark-repetitions=100
//
// Runs one entry point of a library made by gather-compile (which
// describes its entry points, kEntryPointsSymbolName), or of an `.mlir` or
// `.onnx` input JIT-compiled with the onnx-to-llvm pipeline, on tensors from
// the command line, `.npy` or `.pb` files (gather/Runner/HostTensor.h);
// prints, writes or compares its results; times it. docs/Deploying.md.
//
//===----------------------------------------------------------------------===//

#include "gather/Compiler/Compiler.h"
#include "gather/Compiler/InputContext.h"
#include "gather/ExecutionEngine/JitCompiler.h"
#include "gather/Runner/EntryPointCall.h"
#include "gather/Runner/HostTensor.h"
#include "gather/Support/ToolMain.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <dlfcn.h>

using namespace mlir;
namespace cl = llvm::cl;

static cl::OptionCategory category("gather-run options");

static cl::opt<std::string>
    inputFile(cl::Positional, cl::Required,
              cl::desc("<library.so (gather-compile), input.mlir or "
                       "model.onnx>"),
              cl::cat(category));
static cl::opt<std::string> function(
    "function",
    cl::desc("The entry point to run (default: the only one that takes "
             "arguments)"),
    cl::value_desc("name"), cl::cat(category));
static cl::list<std::string>
    inputs("input",
           cl::desc("One argument, in order: <shape>x<type>=<values> (e.g. "
                    "2x3xf32=1,2,3,4,5,6, or one value for all), @<file>.npy "
                    "or @<file>.pb"),
           cl::value_desc("tensor"), cl::cat(category));
static cl::list<std::string>
    outputs("output",
            cl::desc("Where result i goes, in order: @<file>.npy (default: "
                     "printed to stdout)"),
            cl::value_desc("@file.npy"), cl::cat(category));
static cl::list<std::string> expectedOutputs(
    "expected_output",
    cl::desc("The expected result i, in order (as --input): compared bit for "
             "bit; a mismatch is an error listing the first ones"),
    cl::value_desc("tensor"), cl::cat(category));
static cl::opt<unsigned> repetitions(
    "benchmark-repetitions",
    cl::desc("Run N times and print the time per call (min, median, max) "
             "instead of the results; --output and --expected_output take "
             "those of the last call"),
    cl::init(0), cl::value_desc("N"), cl::cat(category));
static cl::opt<unsigned> optLevel("O", cl::Prefix, cl::init(3),
                                  cl::desc("LLVM optimization level of the "
                                           "JIT, 0-3 (.mlir and .onnx)"),
                                  cl::value_desc("level"), cl::cat(category));

static int fail(const llvm::Twine &message) {
  llvm::outs().flush();
  llvm::errs() << "gather-run: error: " << message << "\n";
  return 1;
}

namespace {
/// The entry points of the input and where to find each wrapper.
struct LoadedModule {
  std::vector<gather::EntryPoint> entryPoints;
  std::function<void *(llvm::StringRef)> lookup;
  std::unique_ptr<ExecutionEngine> engine;
  void *library = nullptr;
};
} // namespace

/// A library of gather-compile: loaded, its entry points read.
static llvm::Expected<LoadedModule> loadLibrary(llvm::StringRef path,
                                                MLIRContext &context) {
  LoadedModule loaded;
  // A file name without a directory is the file here, not one the dynamic
  // loader would look for in its search path.
  std::string file = path.contains('/') ? path.str() : "./" + path.str();
  loaded.library = dlopen(file.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!loaded.library)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "cannot load '" + path + "': " + dlerror());
  const auto *text = static_cast<const char *>(
      dlsym(loaded.library, gather::kEntryPointsSymbolName.data()));
  if (!text)
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        "'" + path + "' does not describe its entry points (no '" +
            gather::kEntryPointsSymbolName +
            "'): it was not made by gather-compile");
  // Code for a CPU this one is not would die of an illegal instruction.
  if (const auto *target = static_cast<const char *>(
          dlsym(loaded.library, gather::kTargetSymbolName.data())))
    if (llvm::Error error = gather::checkLibraryTarget(target, path))
      return std::move(error);
  auto entryPoints = gather::parseEntryPoints(
      text, &context, NameLoc::get(StringAttr::get(&context, path)));
  if (!entryPoints)
    return entryPoints.takeError();
  loaded.entryPoints = std::move(*entryPoints);
  void *library = loaded.library;
  loaded.lookup = [library](llvm::StringRef name) {
    return dlsym(library, ("_mlir_ciface_" + name).str().c_str());
  };
  return loaded;
}

/// An .mlir or .onnx input: JIT-compiled with the pipeline.
static llvm::Expected<LoadedModule> compileInput(llvm::StringRef path,
                                                 gather::InputContext &input) {
  OwningOpRef<ModuleOp> module = input.read(path);
  auto failedHere = [&](const llvm::Twine &what) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   what + " (the errors above)");
  };
  if (!module)
    return failedHere("'" + path + "' cannot be read");
  // As gather-compile: a model with other nodes runs its gathers' kernels.
  if (failed(gather::partitionModel(*module)))
    return failedHere("the gathers cannot be outlined");
  auto entryPoints = gather::getEntryPoints(*module, /*checkForC=*/false);
  if (failed(entryPoints))
    return failedHere("no entry points");
  auto options =
      gather::parseONNXToLLVMPipelineOptions(gather::getPipelineOptionsFlag());
  if (!options)
    return options.takeError();
  auto engine = gather::compileAndJit(*module, **options, optLevel);
  if (!engine)
    return engine.takeError();
  LoadedModule loaded;
  loaded.entryPoints = std::move(*entryPoints);
  loaded.engine = std::move(*engine);
  ExecutionEngine *jit = loaded.engine.get();
  loaded.lookup = [jit](llvm::StringRef name) -> void * {
    auto address = gather::lookupCInterface(*jit, name);
    if (!address) {
      llvm::consumeError(address.takeError());
      return nullptr;
    }
    return *address;
  };
  return loaded;
}

/// The tensors of `specs` (--input, --expected_output).
static llvm::Expected<std::vector<gather::HostTensor>>
parseTensors(const cl::list<std::string> &specs, llvm::StringRef flag,
             MLIRContext &context) {
  std::vector<gather::HostTensor> tensors;
  for (auto [i, spec] : llvm::enumerate(specs)) {
    auto tensor = gather::HostTensor::parse(spec, &context);
    if (!tensor)
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "--" + flag + " " + llvm::Twine(i) + ": " +
                                         llvm::toString(tensor.takeError()));
    tensors.push_back(std::move(*tensor));
  }
  return tensors;
}

static int toolMain(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  gather::getPipelineOptionsFlag().addCategory(category);
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(
      argc, argv,
      "gather-run: runs an entry point of a gather-compile library, an MLIR "
      "module or an ONNX model on real inputs\n\n"
      "  gather-run model.so --input=@data.npy --input=@indices.npy "
      "--output=@y.npy\n"
      "  gather-run k.mlir --function=f --input=2x2xf32=1,2,3,4 "
      "--input=2x2xi64=0,0,1,0\n"
      "  gather-run model.so --input=... --benchmark-repetitions=100\n\n"
      "--help-hidden lists LLVM's and MLIR's options too.\n");

  gather::InputContext input;
  MLIRContext &context = input.getContext();

  if (llvm::Error error = gather::checkOpenMPEnvironment())
    return fail(llvm::toString(std::move(error)));
  llvm::StringRef extension = llvm::sys::path::extension(inputFile);
  bool isLibrary =
      extension == ".so" || llvm::StringRef(inputFile).contains(".so.");
  auto loaded = isLibrary ? loadLibrary(inputFile, context)
                          : compileInput(inputFile, input);
  if (!loaded)
    return fail(llvm::toString(loaded.takeError()));

  // The entry point: named, or the only one that takes arguments.
  const gather::EntryPoint *entry = nullptr;
  std::string names;
  for (const gather::EntryPoint &candidate : loaded->entryPoints) {
    names += (names.empty() ? "" : ", ") + candidate.name;
    if (function.empty() ? !candidate.arguments.empty()
                         : candidate.name == function) {
      if (entry && function.empty())
        return fail("'" + inputFile +
                    "' has several entry points; choose one with "
                    "--function (" +
                    names + ", ...)");
      entry = &candidate;
    }
  }
  if (!entry)
    return fail(function.empty()
                    ? "'" + inputFile + "' has no entry point with arguments"
                    : "'" + inputFile + "' has no entry point '" + function +
                          "' (it has: " + names + ")");
  void *wrapper = loaded->lookup(entry->name);
  if (!wrapper)
    return fail("'" + inputFile + "' has no '_mlir_ciface_" + entry->name +
                "' (the function lacks llvm.emit_c_interface)");

  auto arguments = parseTensors(inputs, "input", context);
  if (!arguments)
    return fail(llvm::toString(arguments.takeError()));
  auto expected = parseTensors(expectedOutputs, "expected_output", context);
  if (!expected)
    return fail(llvm::toString(expected.takeError()));
  if (llvm::Error error = gather::checkCall(*entry, *arguments))
    return fail(llvm::toString(std::move(error)));
  for (auto [flag, count] : {std::pair{"output", outputs.size()},
                             std::pair{"expected_output", expected->size()}})
    if (count > entry->results.size())
      return fail("--" + llvm::Twine(flag) + " given " + llvm::Twine(count) +
                  " times, but '" + entry->name + "' has " +
                  llvm::Twine(entry->results.size()) + " results");
  for (const std::string &output : outputs)
    if (!llvm::StringRef(output).starts_with("@") ||
        llvm::sys::path::extension(output) != ".npy")
      return fail("--output '" + output + "' is not @<file>.npy");

  // The calls: one, or --benchmark-repetitions timed.
  std::vector<gather::HostTensor> results;
  std::vector<double> micros;
  for (unsigned i = 0, n = std::max(1u, repetitions.getValue()); i < n; ++i) {
    auto start = std::chrono::steady_clock::now();
    auto called = gather::callEntryPoint(wrapper, *entry, *arguments);
    auto end = std::chrono::steady_clock::now();
    if (!called)
      return fail(llvm::toString(called.takeError()));
    micros.push_back(
        std::chrono::duration<double, std::micro>(end - start).count());
    results = std::move(*called);
  }

  for (auto [i, result] : llvm::enumerate(results)) {
    if (i < outputs.size()) {
      if (llvm::Error error =
              result.writeNumPy(llvm::StringRef(outputs[i]).drop_front()))
        return fail(llvm::toString(std::move(error)));
    } else if (i >= expected->size() && repetitions == 0) {
      if (llvm::Error error = gather::printResult(result, i))
        return fail(llvm::toString(std::move(error)));
    }
    if (i < expected->size()) {
      if (llvm::Error error = gather::compareResult(result, (*expected)[i], i))
        return fail(llvm::toString(std::move(error)));
    }
  }
  if (repetitions > 0) {
    std::sort(micros.begin(), micros.end());
    llvm::outs() << llvm::format(
        "%s: %u calls, per call: min %.3f us, median %.3f us, max %.3f us\n",
        entry->name.c_str(), repetitions.getValue(), micros.front(),
        micros[micros.size() / 2], micros.back());
  }
  return 0;
}

// Out of memory and fatal errors as located errors, a large stack.
int main(int argc, char **argv) {
  return gather::runToolMain(argc, argv, toolMain);
}
