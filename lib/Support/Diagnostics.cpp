//===- Diagnostics.cpp - Locations and diagnostics as text ----------------===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "gather/Support/Diagnostics.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

/// `text` with each control character (a NUL, a newline, ...) written as
/// `\XX` in hex and a backslash as `\\`, as MLIR's printer escapes strings,
/// so that a location's text stays one line of a report, a C string cannot
/// end inside it, and the text reads back unambiguously (a file named
/// `a\0A` is `a\\0A`, a newline `\0A`).
static std::string escapeControls(StringRef text) {
  std::string escaped;
  escaped.reserve(text.size());
  for (char c : text) {
    auto byte = static_cast<unsigned char>(c);
    if (c == '\\') {
      escaped += "\\\\";
      continue;
    }
    if (byte >= 0x20 && byte != 0x7f) {
      escaped.push_back(c);
      continue;
    }
    escaped.push_back('\\');
    escaped.push_back(llvm::hexdigit(byte >> 4));
    escaped.push_back(llvm::hexdigit(byte & 0xf));
  }
  return escaped;
}

std::string gather::formatRuntimeLocation(Location loc) {
  return llvm::TypeSwitch<LocationAttr, std::string>(loc)
      .Case([](FileLineColRange file) {
        std::string text = escapeControls(file.getFilename());
        if (file.getStartLine() != 0 || file.getStartColumn() != 0)
          text += ":" + std::to_string(file.getStartLine()) + ":" +
                  std::to_string(file.getStartColumn());
        return text;
      })
      .Case([](NameLoc name) {
        std::string child = formatRuntimeLocation(name.getChildLoc());
        std::string text = escapeControls(name.getName());
        return child.empty() ? text : child + ": " + text;
      })
      .Case([](FusedLoc fused) {
        std::string text;
        for (Location part : fused.getLocations()) {
          std::string formatted = formatRuntimeLocation(part);
          if (formatted.empty())
            continue;
          text += (text.empty() ? "" : ", ") + formatted;
        }
        return text;
      })
      .Case([](CallSiteLoc call) {
        return formatRuntimeLocation(call.getCallee());
      })
      .Case([](OpaqueLoc opaque) {
        return formatRuntimeLocation(opaque.getFallbackLocation());
      })
      .Default([](LocationAttr) { return std::string(); });
}

void gather::printDiagnostic(llvm::raw_ostream &os, Diagnostic &diag) {
  auto print = [&](Diagnostic &one) {
    std::string location = formatRuntimeLocation(one.getLocation());
    if (!location.empty())
      os << location << ": ";
    switch (one.getSeverity()) {
    case DiagnosticSeverity::Error:
      os << "error: ";
      break;
    case DiagnosticSeverity::Warning:
      os << "warning: ";
      break;
    case DiagnosticSeverity::Note:
      os << "note: ";
      break;
    case DiagnosticSeverity::Remark:
      os << "remark: ";
      break;
    }
    os << one << "\n";
  };
  print(diag);
  for (Diagnostic &note : diag.getNotes())
    print(note);
}

void gather::registerLocationDiagnosticHandler(MLIRContext *context) {
  context->getDiagEngine().registerHandler([](Diagnostic &diag) {
    auto file = diag.getLocation()->findInstanceOf<FileLineColLoc>();
    if (diag.getSeverity() != DiagnosticSeverity::Error ||
        (file && file.getLine() != 0))
      return failure(); // Shown with its source line by MLIR's handler.
    printDiagnostic(llvm::errs(), diag);
    llvm::errs().flush();
    return success();
  });
}
