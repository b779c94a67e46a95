//===- TargetInfo.cpp - What the target CPU says about gathers ------------===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "gather/Codegen/TargetInfo.h"
#include "gather/Support/Diagnostics.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Analysis/TargetTransformInfo.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/Triple.h"

using namespace gather;

TargetInfo::~TargetInfo() = default;

namespace {
/// The native target: its triple, its LLVM target and its subtarget
/// information without a CPU or features.
struct NativeTarget {
  llvm::Triple triple;
  const llvm::Target *target;
  std::unique_ptr<llvm::MCSubtargetInfo> subtarget;
};
} // namespace

static llvm::Expected<NativeTarget> getNativeTarget() {
  // gather-opt and gather-translate do not initialize any target; the JIT
  // does. (Repeated calls do nothing.)
  static const bool initialized = !llvm::InitializeNativeTarget();
  if (!initialized)
    return llvm::createStringError("cannot initialize LLVM's native target");
  llvm::Triple triple(llvm::sys::getProcessTriple());
  std::string error;
  const llvm::Target *target =
      llvm::TargetRegistry::lookupTarget(triple, error);
  if (!target)
    return llvm::createStringError("no LLVM target for " + triple.str() + ": " +
                                   error);
  std::unique_ptr<llvm::MCSubtargetInfo> subtarget(
      target->createMCSubtargetInfo(triple, "", ""));
  if (!subtarget)
    return llvm::createStringError("no subtarget information for " +
                                   triple.str());
  return NativeTarget{triple, target, std::move(subtarget)};
}

llvm::Error TargetInfo::checkFeatureNames(llvm::StringRef features,
                                          llvm::StringRef what) {
  auto native = getNativeTarget();
  if (!native)
    return native.takeError();
  llvm::SmallVector<llvm::StringRef> requested;
  if (!features.trim().empty())
    features.split(requested, ',');
  llvm::ArrayRef<llvm::SubtargetFeatureKV> known =
      native->subtarget->getAllProcessorFeatures();
  for (llvm::StringRef feature : requested) {
    llvm::StringRef name = feature.trim();
    if (name.empty() || (name.front() != '+' && name.front() != '-'))
      return llvm::createStringError(
          what + ": '" + feature +
          "' is not written +name or -name (a comma-separated "
          "list, e.g. +avx2,-avx512f)");
    name = name.drop_front();
    if (llvm::none_of(known, [&](const llvm::SubtargetFeatureKV &kv) {
          return name == kv.Key;
        }))
      return llvm::createStringError(
          what + ": '" + name + "' is not a feature of " +
          native->triple.getArchName() + " (llc -mattr=help)");
  }
  return llvm::Error::success();
}

llvm::Expected<std::unique_ptr<TargetInfo>>
TargetInfo::create(llvm::StringRef cpu, llvm::StringRef features) {
  auto native = getNativeTarget();
  if (!native)
    return native.takeError();
  const llvm::Triple &triple = native->triple;
  const llvm::Target *target = native->target;
  // Check the names first: LLVM itself only prints a warning for an unknown
  // CPU or feature and goes on with "generic" code.
  if (!cpu.empty() && !native->subtarget->isCPUStringValid(cpu))
    return llvm::createStringError(
        "target-cpu '" + cpu + "' is not a CPU of " + triple.getArchName() +
        " (LLVM's names, e.g. znver4, skylake-avx512, haswell: "
        "llc -mcpu=help)");
  if (llvm::Error error = checkFeatureNames(features, "target-features"))
    return std::move(error);
  llvm::SmallVector<llvm::StringRef> requested;
  if (!features.trim().empty())
    features.split(requested, ',');

  auto info = std::unique_ptr<TargetInfo>(new TargetInfo());
  info->host = cpu.empty();
  llvm::SmallVector<std::string> all;
  if (info->host) {
    info->cpu = llvm::sys::getHostCPUName().str();
    // As JITTargetMachineBuilder::detectHost.
    for (const auto &feature : llvm::sys::getHostCPUFeatures())
      all.push_back((feature.second ? "+" : "-") + feature.first().str());
    llvm::sort(all);
  } else {
    info->cpu = cpu.str();
  }
  for (llvm::StringRef feature : requested)
    all.push_back(feature.trim().str());
  info->features = llvm::join(all, ",");
  info->requestedFeatures = features.trim().str();

  // A CPU without 64-bit mode (i386, pentium4, ...) or "-64bit": LLVM's X86
  // backend would stop the process with a fatal error when it compiles.
  if (triple.isX86() && triple.isArch64Bit()) {
    std::unique_ptr<llvm::MCSubtargetInfo> chosen(
        target->createMCSubtargetInfo(triple, info->cpu, info->features));
    if (!chosen || !chosen->checkFeatures("+64bit"))
      return llvm::createStringError(
          (cpu.empty() ? "this host (" + info->cpu + ")"
                       : "target-cpu '" + cpu + "'") +
          (requested.empty() ? ""
                             : " with target-features '" + features + "'") +
          " has no 64-bit mode, which " + triple.getArchName() + " code needs");
  }

  info->targetMachine.reset(target->createTargetMachine(
      triple, info->cpu, info->features, llvm::TargetOptions(),
      /*RM=*/std::nullopt));
  if (!info->targetMachine)
    return llvm::createStringError("cannot create an LLVM target machine for " +
                                   triple.str() + " (" + info->cpu + ")");
  info->context = std::make_unique<llvm::LLVMContext>();
  info->module = std::make_unique<llvm::Module>("target-info", *info->context);
  info->module->setDataLayout(info->targetMachine->createDataLayout());
  info->module->setTargetTriple(triple);
  info->function = llvm::Function::Create(
      llvm::FunctionType::get(llvm::Type::getVoidTy(*info->context), false),
      llvm::GlobalValue::ExternalLinkage, "f", *info->module);
  return info;
}

bool TargetInfo::hasFastGather() const { return hasFeatures("+fast-gather"); }

bool TargetInfo::hasFeatures(llvm::StringRef features) const {
  return targetMachine->getMCSubtargetInfo()->checkFeatures(features);
}

/// The LLVM IR type of the MLIR element type `type` (an integer of its width
/// for types LLVM has no equivalent of).
static llvm::Type *getLLVMElementType(mlir::Type type,
                                      llvm::LLVMContext &context) {
  if (type.isF16())
    return llvm::Type::getHalfTy(context);
  if (type.isBF16())
    return llvm::Type::getBFloatTy(context);
  if (type.isF32())
    return llvm::Type::getFloatTy(context);
  if (type.isF64())
    return llvm::Type::getDoubleTy(context);
  unsigned bits = type.isIntOrFloat() ? type.getIntOrFloatBitWidth() : 64;
  return llvm::Type::getIntNTy(context, bits);
}

bool TargetInfo::isLegalGather(mlir::Type elementType, unsigned lanes) const {
  llvm::Type *element = getLLVMElementType(elementType, *context);
  auto *vectorType = llvm::FixedVectorType::get(element, lanes);
  llvm::Align alignment(
      std::max<uint64_t>(1, element->getPrimitiveSizeInBits() / 8));
  llvm::TargetTransformInfo tti =
      targetMachine->getTargetTransformInfo(*function);
  return tti.isLegalMaskedGather(vectorType, alignment) &&
         !tti.forceScalarizeMaskedGather(vectorType, alignment);
}

GatherForm TargetInfo::resolve(GatherForm form, mlir::Type elementType,
                               unsigned lanes) const {
  if (form != GatherForm::Auto)
    return form;
  return hasFastGather() && isLegalGather(elementType, lanes)
             ? GatherForm::Hardware
             : GatherForm::Scalarized;
}

bool TargetInfo::usesHardwareGathers(GatherForm form) const {
  return form == GatherForm::Hardware ||
         (form == GatherForm::Auto && hasFastGather());
}

std::string TargetInfo::getCodeGenFeatures(GatherForm form) const {
  if (usesHardwareGathers(form))
    return features;
  return features.empty() ? "+prefer-no-gather"
                          : features + ",+prefer-no-gather";
}

/// Whether LLVM may emit instructions of X86 feature `name` for plain code
/// (no intrinsics): vector extensions, scalar bit manipulation, APX. System
/// features (pku, xsaves, invpcid, rdseed, ...) are reached only through
/// intrinsics, and virtual machines often hide them.
static bool isCodeGenFeature(llvm::StringRef name) {
  static const char *const prefixes[] = {
      "sse",    "ssse3", "avx",    "fma", "f16c", "bmi",       "lzcnt",
      "popcnt", "movbe", "cmov",   "cx8", "cx16", "sahf",      "xop",
      "tbm",    "gfni",  "egpr",   "ndd", "ppx",  "push2pop2", "ccmp",
      "nf",     "zu",    "prfchw", "x87", "mmx",  "evex512"};
  return llvm::any_of(
      prefixes, [&](const char *prefix) { return name.starts_with(prefix); });
}

llvm::Error TargetInfo::checkRunsOnHost(llvm::StringRef what) const {
  llvm::StringMap<bool> hostFeatures = llvm::sys::getHostCPUFeatures();
  const llvm::MCSubtargetInfo *subtarget = targetMachine->getMCSubtargetInfo();
  llvm::SmallVector<llvm::StringRef> missing;
  for (const llvm::SubtargetFeatureKV &kv :
       subtarget->getAllProcessorFeatures()) {
    if (!subtarget->hasFeature(kv.Value) || !isCodeGenFeature(kv.Key))
      continue;
    auto it = hostFeatures.find(kv.Key);
    if (it != hostFeatures.end() && !it->second)
      missing.push_back(kv.Key);
  }
  if (missing.empty())
    return llvm::Error::success();
  if (!what.empty())
    return llvm::createStringError(
        what + " cannot run on this host (" + llvm::sys::getHostCPUName() +
        "), which lacks " + llvm::join(missing, ", "));
  std::string given =
      host ? "code with target-features '" + requestedFeatures + "'"
           : "code for target-cpu '" + cpu + "'" +
                 (requestedFeatures.empty()
                      ? ""
                      : " with target-features '" + requestedFeatures + "'");
  return llvm::createStringError(
      given + " cannot run on this host (" + llvm::sys::getHostCPUName() +
      "), which lacks " + llvm::join(missing, ", ") +
      ": compile it ahead of time (gather-translate) instead");
}
