//===- LibraryTarget.cpp - The target a library's code needs --------------===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The record of the target a library of gather-compile was compiled for
// (kTargetSymbolName), and the check its loaders (gather-run, the Python
// package) make with it before they call anything.
//
//===----------------------------------------------------------------------===//

#include "gather/Codegen/TargetInfo.h"
#include "gather/Compiler/Compiler.h"

using namespace mlir;

llvm::Error gather::addTargetGlobal(ModuleOp module,
                                    const ONNXToLLVMPipelineOptions &options) {
  auto target = TargetInfo::create(options.targetCpu, options.targetFeatures);
  if (!target)
    return target.takeError();
  addStringGlobal(module, kTargetSymbolName,
                  (*target)->getCPU().str() + "\n" +
                      (*target)->getCodeGenFeatures(options.gatherForm));
  return llvm::Error::success();
}

llvm::Error gather::checkLibraryTarget(llvm::StringRef text,
                                       llvm::StringRef library) {
  auto [cpu, features] = text.split('\n');
  auto target = TargetInfo::create(cpu, features);
  if (!target)
    return llvm::createStringError(
        "'" + library +
        "' was compiled for a target this host does not "
        "know (" +
        cpu + "): " + llvm::toString(target.takeError()));
  return (*target)->checkRunsOnHost("'" + library.str() + "', compiled for " +
                                    cpu.str() + ",");
}
