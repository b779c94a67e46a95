//===- SharedLibrary.cpp - Link an object into a shared library -----------===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The link of gather-compile's libraries: Debian's lld (kLinkerPath, found
// when gather was configured), the runtime libraries the code calls by
// their paths, and their directories as the library's RUNPATH, so that it
// loads without LD_LIBRARY_PATH wherever gather is installed.
//
//===----------------------------------------------------------------------===//

#include "gather/Compiler/Compiler.h"
#include "gather/ExecutionEngine/RuntimeLibraries.h"
#include "gather/RuntimeABI/RuntimeABI.h"
#include "gather/Support/Diagnostics.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

#include <dlfcn.h>

using namespace mlir;

// The linker and LLVM's OpenMP runtime, as CMake found them
// (lib/Compiler/CMakeLists.txt).
static constexpr llvm::StringLiteral kLinkerPath = GATHER_LINKER_PATH;
static constexpr llvm::StringLiteral kOpenMPLibraryPath = GATHER_LIBOMP_PATH;
// MLIR's runner utilities (libmlir-22: memrefCopy, printMemref*, ...).
static constexpr llvm::StringLiteral kCRunnerUtilsPath =
    GATHER_C_RUNNER_UTILS_PATH;
static constexpr llvm::StringLiteral kRunnerUtilsPath =
    GATHER_RUNNER_UTILS_PATH;

/// The address of `name` in the library at `path` (loaded once), or null.
static void *findIn(llvm::StringRef path, llvm::StringRef name) {
  void *library = dlopen(path.str().c_str(), RTLD_LAZY | RTLD_LOCAL);
  return library ? dlsym(library, name.str().c_str()) : nullptr;
}

FailureOr<gather::RuntimeNeeds> gather::getRuntimeNeeds(ModuleOp lowered) {
  RuntimeNeeds needs;
  needs.cuda = usesCUDARuntime(lowered);
  bool failed = false;
  lowered->walk([&](Operation *op) {
    if (isa<omp::OpenMPDialect>(op->getDialect()))
      needs.openMP = true;
    auto function = dyn_cast<LLVM::LLVMFuncOp>(op);
    if (!function || !function.isExternal() ||
        SymbolTable::symbolKnownUseEmpty(function, lowered))
      return; // (A declaration nothing calls links nothing.)
    StringRef name = function.getSymName();
    if (name.starts_with("__kmpc_") || name.starts_with("omp_")) {
      needs.openMP = true;
      return;
    }
    if (name.starts_with("MPI_") || name.starts_with("gatherMPI")) {
      needs.mpi = true;
      return;
    }
    if (name.starts_with("llvm.") || needs.cuda ||
        dlsym(RTLD_DEFAULT, name.str().c_str()))
      return; // An intrinsic, the CUDA runtime's, gather's runtime or libc.
    for (StringRef utilities : {kCRunnerUtilsPath, kRunnerUtilsPath})
      if (findIn(utilities, name)) {
        if (!llvm::is_contained(needs.runnerUtilities, utilities.str()))
          needs.runnerUtilities.push_back(utilities.str());
        return;
      }
    emitError(function.getLoc())
        << "function '" << name
        << "' is declared but defined nowhere the library can link: not in "
           "the module, gather's runtimes, libomp, MLIR's runner utilities "
           "or the C library";
    failed = true;
  });
  if (failed)
    return failure();
  return needs;
}

llvm::Error gather::linkSharedLibrary(llvm::StringRef objectFile,
                                      llvm::StringRef output,
                                      RuntimeNeeds needs) {
  std::string runtime = getRuntimeLibraryPath();
  if (runtime.empty())
    return llvm::createStringError("cannot find gather's runtime library "
                                   "(libgather_runtime.so) to link against");
  SmallVector<std::string> libraries{runtime};
  if (needs.openMP) {
    // The real file (libomp.so.5 of the libomp5 package), not the -dev
    // package's libomp.so symlink: only the former is there at run time.
    SmallString<128> real;
    if (llvm::sys::fs::real_path(kOpenMPLibraryPath, real))
      real = kOpenMPLibraryPath;
    libraries.push_back(real.str().str());
  }
  if (needs.cuda)
    libraries.push_back(findNextToRuntime(kCUDARuntimeLibraryName));
  if (needs.mpi)
    libraries.push_back(findNextToRuntime(kMPIRuntimeLibraryName));
  for (const std::string &utilities : needs.runnerUtilities)
    libraries.push_back(utilities);
  SmallVector<std::string> directories;
  for (std::string &library : libraries) {
    // As the file system names it (an installed tool finds its libraries
    // as <prefix>/bin/../lib): the RUNPATH then reads <prefix>/lib.
    SmallString<256> real;
    if (llvm::sys::fs::real_path(library, real))
      return llvm::createStringError("cannot find the runtime library '" +
                                     library + "' the code calls");
    library = real.str().str();
    std::string directory = llvm::sys::path::parent_path(library).str();
    if (!llvm::is_contained(directories, directory))
      directories.push_back(directory);
  }

  std::string soname = llvm::sys::path::filename(output).str();
  SmallVector<std::string> arguments{kLinkerPath.str(),
                                     "-shared",
                                     "--eh-frame-hdr",
                                     "-z",
                                     "noexecstack",
                                     "-z",
                                     "now",
                                     "-soname",
                                     soname,
                                     "-o",
                                     output.str(),
                                     objectFile.str()};
  for (const std::string &library : libraries)
    arguments.push_back(library);
  for (const std::string &directory : directories) {
    arguments.push_back("-rpath");
    arguments.push_back(directory);
  }

  // The linker's messages, for the error.
  SmallString<128> messages;
  if (std::error_code error = llvm::sys::fs::createTemporaryFile(
          "gather-compile-link", "txt", messages))
    return llvm::createStringError("cannot create a temporary file: " +
                                   error.message());
  SmallVector<StringRef> argv(arguments.begin(), arguments.end());
  std::optional<StringRef> redirects[] = {std::nullopt, StringRef(messages),
                                          StringRef(messages)};
  std::string why;
  int status = llvm::sys::ExecuteAndWait(kLinkerPath, argv,
                                         /*Env=*/std::nullopt, redirects,
                                         /*SecondsToWait=*/0,
                                         /*MemoryLimit=*/0, &why);
  std::string text;
  if (auto buffer = llvm::MemoryBuffer::getFile(messages))
    text = (*buffer)->getBuffer().rtrim().str();
  llvm::sys::fs::remove(messages);
  if (status == 0)
    return llvm::Error::success();
  return llvm::createStringError(
      "linking '" + output + "' with " + kLinkerPath + " failed" +
      (why.empty() ? "" : ": " + why) + (text.empty() ? "" : ":\n" + text));
}
