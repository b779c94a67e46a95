//===- JitEngine.h - The JIT engine of an LLVM dialect module ---*- C++ -*-===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// How gather makes the MLIR ExecutionEngine of a module already in the LLVM
// dialect: one place for compileAndJit (gather/ExecutionEngine/
// JitCompiler.h) and gather-runner, so that both JIT-compile the same way:
//
// - the target machine is the target's (TargetInfo: its CPU, and its
//   features with `+prefer-no-gather` unless the gather form uses hardware
//   gathers), plus any features the caller adds;
// - the optimization level applies to both LLVM's IR pipeline and its code
//   generation;
// - a function or global variable the module declares (extern_weak too)
//   must be defined in the process or in a library given (checked before
//   linking, with its name and location: the JIT links lazily and would
//   otherwise fail at the first call, or say only "Symbols not found"); a
//   library given is bound when it is loaded (RTLD_NOW);
// - what the engine cannot run is refused with the symbol's name and
//   location: a symbol `_mlir_<f>` beside a function `f` defined with
//   external linkage (the engine's name for `f`'s packed-arguments wrapper,
//   which would add a body to the module's own symbol), a global
//   constructor or destructor that is not `void ()`;
// - linking is eager: the functions the module defines with external
//   linkage (the entry points, their `_mlir_` and `_mlir_ciface_` wrappers)
//   are looked up before the engine is returned, and the module's global
//   constructors (llvm.mlir.global_ctors, e.g. a GPU binary's module load)
//   have run;
// - the engine keeps no copy of the object code unless one is written to a
//   file, and tells GDB and perf about the code only when asked: both
//   listeners copy the whole object with a malloc whose failure LLVM does
//   not check (a SIGSEGV in MemoryBuffer::getMemBufferRef, under
//   RTDyldObjectLinkingLayer::onObjEmit, for a large module near a memory
//   limit). Without them, running out of memory while linking is LLVM's
//   "Unable to allocate section memory!" error.
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_EXECUTIONENGINE_JITENGINE_H
#define GATHER_EXECUTIONENGINE_JITENGINE_H

#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <string>

namespace llvm {
class LLVMContext;
class Module;
} // namespace llvm

namespace mlir {
class ModuleOp;
class Operation;
} // namespace mlir

namespace gather {

/// What createJitEngine needs besides the module.
struct JitEngineOptions {
  /// LLVM's optimization level (0-3), for its IR pipeline and its code
  /// generation.
  unsigned optLevel = 3;
  /// The target machine's CPU and features: TargetInfo::getCPU() and
  /// TargetInfo::getCodeGenFeatures(form) for the gather form in use
  /// (gather/Codegen/TargetInfo.h); an empty CPU is the host's.
  std::string cpu;
  std::string features;
  /// Features added after `features` (LLVM's `-mattr` spelling, e.g.
  /// "+avx2,-fma").
  std::string extraFeatures;
  /// Translates the module to LLVM IR (MLIR's translateModuleToLLVMIR if
  /// null). It may return null after reporting why.
  llvm::function_ref<std::unique_ptr<llvm::Module>(mlir::Operation *,
                                                   llvm::LLVMContext &)>
      llvmModuleBuilder = nullptr;
  /// Shared libraries whose functions the module may call: loaded into the
  /// process (permanently) before the module's declarations are checked.
  /// Each must exist.
  llvm::ArrayRef<std::string> sharedLibPaths;
  /// A file that gets the object code (an ELF relocatable file; empty:
  /// none). It must be writable; a failed write is an error naming it.
  std::string objectFile;
  /// Tell GDB (LLVM's GDB JIT interface: source lines and backtraces in JIT
  /// code) and perf (its JIT dump, where LLVM was built with it) about the
  /// code. Each copies the whole object once more.
  bool registerWithDebuggers = false;
};

/// The ExecutionEngine of `module` (in the LLVM dialect, with the dialects'
/// translations to LLVM IR registered), as the file comment says. Errors
/// name what failed; the ones the module's diagnostics explain (e.g. a
/// translation failure) carry no locations: the caller's diagnostic
/// handler has printed or collected them.
llvm::Expected<std::unique_ptr<mlir::ExecutionEngine>>
createJitEngine(mlir::ModuleOp module, const JitEngineOptions &options);

} // namespace gather

#endif // GATHER_EXECUTIONENGINE_JITENGINE_H
