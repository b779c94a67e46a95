//===- TargetInfo.h - What the target CPU says about gathers ----*- C++ -*-===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The CPU that gather's code is compiled for, as LLVM's X86 (or other native)
// backend sees it, and the code shape of vectorized gathers it implies
// (docs/CodeShape.md):
//
//   - `hardware`: `vector.gather`, lowered to llvm.masked.gather (AVX2/AVX-512
//     `vgather*` where LLVM finds them legal);
//   - `scalarized`: one scalar load per lane inserted into a vector, and one
//     vector store (vector::populateVectorGatherToConditionalLoadPatterns,
//     whose all-true masks fold away);
//   - `scalar`: plain scalar loops (no vectorization of gathers at all).
//
// The rule (`auto`): hardware gathers where LLVM finds a masked gather of the
// vector type legal and not force-scalarized
// (TargetTransformInfo::isLegalMaskedGather, !forceScalarizeMaskedGather)
// *and* the CPU has the `fast-gather` tuning bit (Intel Skylake and later);
// scalarized vectors otherwise (every AMD Zen, Haswell/Broadwell, generic
// x86-64). LLVM's gather costs are not used: on Zen 4/5 they rank hardware
// gathers first, where they measure 1.2-3x slower than scalarized vectors.
//
// The target is a CPU name as LLVM spells it (`znver4`, `skylake-avx512`,
// `haswell`; `llc -mcpu=help`) and LLVM subtarget features (`+avx2,-avx512f,
// +fast-gather`); an empty CPU name means the host (llvm::sys::getHostCPUName
// and getHostCPUFeatures, as the JIT's JITTargetMachineBuilder::detectHost).
// Tuning bits (fast-gather, prefer-no-gather) come from the CPU name; an
// unknown CPU is an error, not "generic".
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_CODEGEN_TARGETINFO_H
#define GATHER_CODEGEN_TARGETINFO_H

#include "gather/Support/EnumOptions.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <optional>
#include <string>

namespace llvm {
class TargetMachine;
class LLVMContext;
class Module;
class Function;
} // namespace llvm

namespace mlir {
class Type;
} // namespace mlir

namespace gather {

/// The code shape of vectorized gathers; `Auto` is chosen from the target.
enum class GatherForm { Auto, Hardware, Scalarized, Scalar };

/// The values of a `gather-form` option and their help: the one table that
/// gather-select-form's option (Codegen/Passes.td) and the onnx-to-llvm
/// pipeline's (Pipelines/Pipelines.h) take (gather/Support/EnumOptions.h).
inline constexpr EnumOptionValue<GatherForm> kGatherFormValues[] = {
    {GatherForm::Auto, "auto",
     "hardware gathers where legal and the CPU has fast-gather, else "
     "scalarized"},
    {GatherForm::Hardware, "hardware", "vector.gather (llvm.masked.gather)"},
    {GatherForm::Scalarized, "scalarized",
     "per-lane scalar loads, one vector store"},
    {GatherForm::Scalar, "scalar",
     "scalar loops: nothing vectorized (gather-select-form: as scalarized)"},
};

/// The option spelling of `form` ("auto", "hardware", "scalarized",
/// "scalar").
inline llvm::StringRef stringifyGatherForm(GatherForm form) {
  return stringifyEnumOption(kGatherFormValues, form);
}

/// A target CPU and its LLVM TargetMachine (native target, host triple).
class TargetInfo {
public:
  /// The target `cpu` (empty: the host) with subtarget `features`, a
  /// comma-separated list of `+name` / `-name` (empty: none; for the host,
  /// added to the host's features). Errors: the native target cannot be
  /// initialized, `cpu` is not a CPU of the native target, a feature is not
  /// written `+name` / `-name` or is not one of the target's, the target
  /// (CPU and features) has no 64-bit mode on a 64-bit x86 host (LLVM's
  /// backend would end the process with a fatal error); the message names
  /// the offending text.
  static llvm::Expected<std::unique_ptr<TargetInfo>>
  create(llvm::StringRef cpu, llvm::StringRef features);

  /// An error if one of `features` (as create() takes them) is not written
  /// `+name` / `-name` or is not a feature of the native target, the
  /// message starting with `what` (the option that gave them: LLVM itself
  /// only warns and ignores the feature); success otherwise.
  static llvm::Error checkFeatureNames(llvm::StringRef features,
                                       llvm::StringRef what);

  ~TargetInfo();

  /// The CPU name (the host's when none was given, e.g. `znver5`).
  llvm::StringRef getCPU() const { return cpu; }
  bool isHost() const { return host; }
  llvm::TargetMachine &getTargetMachine() const { return *targetMachine; }

  /// Whether the CPU has the `fast-gather` tuning bit.
  bool hasFastGather() const;

  /// Whether the target machine has every subtarget feature of `features`
  /// (comma-separated `+name`, e.g. `+avx512f,+avx512bw`): the CPU's own and
  /// the given ones, never the host's for a named CPU.
  bool hasFeatures(llvm::StringRef features) const;

  /// Whether LLVM implements a masked gather of `lanes` elements of
  /// `elementType` (an MLIR integer or float type) with gather instructions:
  /// isLegalMaskedGather && !forceScalarizeMaskedGather.
  bool isLegalGather(mlir::Type elementType, unsigned lanes) const;

  /// The form `form` resolves to for a vector.gather of `lanes` elements of
  /// `elementType`: `form` itself unless it is Auto; for Auto, Hardware if
  /// the gather is legal and the CPU has fast-gather, else Scalarized.
  GatherForm resolve(GatherForm form, mlir::Type elementType,
                     unsigned lanes) const;

  /// Whether code compiled with `form` for this target may contain hardware
  /// gathers: `form` is Hardware, or Auto on a CPU with fast-gather.
  /// Otherwise LLVM's own vectorizers must not create gathers either:
  /// getCodeGenFeatures() adds `+prefer-no-gather`.
  bool usesHardwareGathers(GatherForm form) const;

  /// The target machine's features (the host's plus the given ones for the
  /// host, the given ones for a named CPU) plus `+prefer-no-gather` unless
  /// usesHardwareGathers(form): the full feature list for the target machine
  /// that compiles the code, and for `target-features` function attributes
  /// (which replace, not extend, the target machine's list).
  std::string getCodeGenFeatures(GatherForm form) const;

  /// An error unless every instruction-set feature the target machine
  /// enables and LLVM may use for plain code (SSE, AVX, AVX-512, FMA, F16C,
  /// BMI, POPCNT, GFNI, APX, ...) is one the host CPU has
  /// (llvm::sys::getHostCPUFeatures): code for the target can then run here.
  /// For the host this checks the features added with `target-features`.
  /// Tuning bits and system features reached only through intrinsics (pku,
  /// xsaves, invpcid, ...; virtual machines often hide them) are not
  /// checked. The message lists the missing features; it starts with
  /// `what` (default: the target-cpu and target-features given).
  llvm::Error checkRunsOnHost(llvm::StringRef what = {}) const;

private:
  TargetInfo() = default;

  std::string cpu;
  std::string features;
  // The features given to create() (for messages).
  std::string requestedFeatures;
  bool host = false;
  std::unique_ptr<llvm::TargetMachine> targetMachine;
  // A module with one function, for TargetTransformInfo queries.
  std::unique_ptr<llvm::LLVMContext> context;
  std::unique_ptr<llvm::Module> module;
  llvm::Function *function = nullptr;
};

} // namespace gather

#endif // GATHER_CODEGEN_TARGETINFO_H
