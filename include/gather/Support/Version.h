//===- Version.h - gather's version and commit ------------------*- C++ -*-===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The version every tool's `--version` prints (runToolMain installs
// printVersion as LLVM's version printer), and the C API's
// mlirGatherGetVersion: the project's version, the commit it was built
// from (when built from a git checkout), then the LLVM it was built with.
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_SUPPORT_VERSION_H
#define GATHER_SUPPORT_VERSION_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

namespace gather {

/// The project's version, e.g. `0.1.0`.
llvm::StringRef getVersion();

/// The commit gather was configured from (12 hex digits), or "" (not built
/// from a git checkout).
llvm::StringRef getCommit();

/// Prints, one per line: `gather version <version> (commit <commit>)`,
/// `LLVM version <llvm>` (the LLVM gather was built with), `Default target:
/// <triple>` and `Host CPU: <cpu>`.
void printVersion(llvm::raw_ostream &os);

} // namespace gather

#endif // GATHER_SUPPORT_VERSION_H
