//===- Version.cpp - gather's version and commit --------------------------===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "gather/Support/Version.h"
#include "gather/Support/VersionInfo.h"

#include "llvm/Config/llvm-config.h"
#include "llvm/TargetParser/Host.h"

llvm::StringRef gather::getVersion() { return GATHER_VERSION_STRING; }

llvm::StringRef gather::getCommit() { return GATHER_COMMIT_STRING; }

void gather::printVersion(llvm::raw_ostream &os) {
  os << "gather version " << getVersion();
  if (!getCommit().empty())
    os << " (commit " << getCommit() << ")";
  os << "\nLLVM version " << LLVM_VERSION_STRING << "\n"
     << "  Default target: " << llvm::sys::getDefaultTargetTriple() << "\n"
     << "  Host CPU: " << llvm::sys::getHostCPUName() << "\n";
}
