//===- LinkNestedModule.cpp - A nested module linked as LLVM IR -----------===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "gather/ExecutionEngine/LinkNestedModule.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/DiagnosticPrinter.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Linker/Linker.h"

using namespace mlir;

/// The linkage of `op` if it is an LLVM-dialect function or global that its
/// module defines (not declares).
static std::optional<LLVM::Linkage> getDefinitionLinkage(Operation *op) {
  if (auto function = dyn_cast<LLVM::LLVMFuncOp>(op))
    if (!function.isExternal())
      return function.getLinkage();
  if (auto global = dyn_cast<LLVM::GlobalOp>(op))
    if (global.getValue() || !global.getInitializer().empty())
      return global.getLinkage();
  return std::nullopt;
}

/// --link-nested-modules: a symbol that both modules define with external
/// linkage (the pipeline's own helpers are internal) is an error at the
/// nested definition, with a note at the outer one (LLVM's linker would only
/// say "symbol multiply defined").
static LogicalResult checkNoLinkClash(ModuleOp module, ModuleOp nested) {
  for (Operation &op : nested.getOps()) {
    auto symbol = dyn_cast<SymbolOpInterface>(&op);
    if (!symbol || getDefinitionLinkage(&op) != LLVM::Linkage::External)
      continue;
    Operation *outer = SymbolTable::lookupSymbolIn(module, symbol.getName());
    if (!outer || getDefinitionLinkage(outer) != LLVM::Linkage::External)
      continue;
    InFlightDiagnostic diag =
        emitError(op.getLoc(), "--link-nested-modules: '")
        << symbol.getName()
        << "' is defined both in the nested module and in the outer one "
           "(make one of them private)";
    diag.attachNote(outer->getLoc()) << "the outer definition";
    return diag;
  }
  return success();
}

std::unique_ptr<llvm::Module>
gather::translateAndLinkNestedModule(ModuleOp module,
                                     llvm::LLVMContext &context) {
  auto nestedModules = module.getOps<ModuleOp>();
  if (!llvm::hasSingleElement(nestedModules)) {
    emitError(module.getLoc(),
              "--link-nested-modules: the module must hold exactly "
              "one nested builtin.module");
    return nullptr;
  }
  ModuleOp nested = *nestedModules.begin();
  if (failed(checkNoLinkClash(module, nested)))
    return nullptr;
  std::unique_ptr<llvm::Module> nestedLLVM =
      translateModuleToLLVMIR(nested, context);
  if (!nestedLLVM)
    return nullptr;
  Location nestedLoc = nested.getLoc();
  nested.erase();
  std::unique_ptr<llvm::Module> mainLLVM =
      translateModuleToLLVMIR(module, context);
  if (!mainLLVM)
    return nullptr;
  // The linker's errors go to LLVMContext's handler, whose default prints
  // them without a location and exits: collect them instead.
  std::string linkerErrors;
  context.setDiagnosticHandlerCallBack(
      [](const llvm::DiagnosticInfo *info, void *errors) {
        llvm::raw_string_ostream os(*static_cast<std::string *>(errors));
        llvm::DiagnosticPrinterRawOStream printer(os);
        if (info->getSeverity() == llvm::DS_Error) {
          os << (static_cast<std::string *>(errors)->empty() ? "" : "; ");
          info->print(printer);
        }
      },
      &linkerErrors);
  bool linkFailed = llvm::Linker::linkModules(*mainLLVM, std::move(nestedLLVM));
  context.setDiagnosticHandlerCallBack(nullptr);
  if (linkFailed) {
    emitError(nestedLoc, "--link-nested-modules: linking the nested module "
                         "failed: ")
        << linkerErrors;
    return nullptr;
  }
  return mainLLVM;
}
