//===- LinkNestedModule.h - A nested module linked as LLVM IR ---*- C++ -*-===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// What mlir-runner's --link-nested-modules does, with located errors: a
// module in the LLVM dialect that holds one nested builtin.module (also in
// the LLVM dialect) is translated to LLVM IR in two parts, linked into one.
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_EXECUTIONENGINE_LINKNESTEDMODULE_H
#define GATHER_EXECUTIONENGINE_LINKNESTEDMODULE_H

#include <memory>

namespace llvm {
class LLVMContext;
class Module;
} // namespace llvm

namespace mlir {
class ModuleOp;
} // namespace mlir

namespace gather {

/// Translates the one nested module of `module` and the rest separately and
/// links them into one LLVM IR module (erasing the nested module). Errors
/// (located, emitted on `module`'s context; null returned): not exactly one
/// nested module; a symbol that both define with external linkage (at the
/// nested definition, a note at the outer one: LLVM's linker would only say
/// "symbol multiply defined"); a failed translation or link.
std::unique_ptr<llvm::Module>
translateAndLinkNestedModule(mlir::ModuleOp module, llvm::LLVMContext &context);

} // namespace gather

#endif // GATHER_EXECUTIONENGINE_LINKNESTEDMODULE_H
