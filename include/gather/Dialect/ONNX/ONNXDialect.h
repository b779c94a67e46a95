//===- ONNXDialect.h - The onnx dialect and its types -----------*- C++ -*-===//
//
// Part of the gather project.
//
//===----------------------------------------------------------------------===//
//
// The `onnx` dialect (C++ namespace gather::ONNX) and its types. The string
// element type `!onnx.string` is `gather::ONNX::StringType`.
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_DIALECT_ONNX_ONNXDIALECT_H
#define GATHER_DIALECT_ONNX_ONNXDIALECT_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/Types.h"

#include "gather/Dialect/ONNX/ONNXOpsDialect.h.inc"

#define GET_TYPEDEF_CLASSES
#include "gather/Dialect/ONNX/ONNXOpsTypes.h.inc"

namespace gather {
/// The suffix of gather's runtime functions (gatherPrint<Suffix>,
/// gatherCompare<Suffix>, gatherWriteTensorProto<Suffix>; see
/// gather/Runtime/GatherRuntime.h) for tensors of `elementType`: F32 F64 F16
/// BF16 I1 I8 I16 I32 I64 UI8 UI16 UI32 UI64 ComplexF32 ComplexF64 String,
/// or "" for a type the runtime does not handle.
llvm::StringRef getRuntimeTypeSuffix(mlir::Type elementType);

/// Returns the private declaration of runtime function `name` (one taking
/// tensors as memrefs through MLIR's C interface, like gatherPrint*) in
/// `module`, creating it with `type`, the `llvm.emit_c_interface` attribute
/// and read-only (`bufferization.access = "read"`) tensor arguments. Fails
/// with an error at the symbol if `module` already has a symbol `name` that
/// is not such a declaration of `type` (e.g. a user function).
llvm::FailureOr<mlir::func::FuncOp> getOrDeclareRuntimeCInterfaceFunction(
    mlir::ModuleOp module, llvm::StringRef name, mlir::FunctionType type);

/// Whether `name` is reserved for gather's runtime (libgather_runtime,
/// libgather_onnx_runtime): it starts with gatherReport, gatherPrint,
/// gatherCompare, gatherWriteTensorProto or gatherSetErrorHandler, possibly
/// after the `_mlir_ciface_` prefix of MLIR's C interface wrappers.
bool isReservedRuntimeName(llvm::StringRef name);

/// The type of the C-interface runtime function `name` (gatherPrint<Suffix>,
/// gatherCompare<Suffix>, gatherWriteTensorProto<Suffix>, see
/// getRuntimeTypeSuffix) as compiled code declares it, or null if `name` is
/// not one of them.
mlir::FunctionType getRuntimeCInterfaceFunctionType(mlir::MLIRContext *context,
                                                    llvm::StringRef name);

/// Checks every symbol with a reserved name (isReservedRuntimeName) in
/// `root` and the modules nested in it: it must be an external function
/// declaration (func.func or llvm.func), and a func.func must have the type
/// `expectedType(name)` returns, when that is not null. Otherwise emits
/// "symbol '<name>' is reserved for gather's runtime ..." at the symbol and
/// fails. A definition would replace the runtime's function when the code
/// is linked; a wrong type would make calls read wrong arguments.
mlir::LogicalResult verifyRuntimeSymbols(
    mlir::Operation *root,
    llvm::function_ref<mlir::FunctionType(llvm::StringRef)> expectedType);
/// `loc` as text for run-time reports and diagnostics, as MLIR's
/// diagnostics print file locations: `file:line:col` for a file location,
/// `file` for a file without a line; a name location as `<child>: <name>`
/// (an imported ONNX node: `model.onnx: node 'n1' (TopK)`, see
/// gather/Target/ONNX/ImportONNX.h); the locations of a fused location
/// joined with `, `; a call site as its callee. "" when unknown.
std::string formatRuntimeLocation(mlir::Location loc);

/// Prints `diag` and its notes to `os`, one line each, as
/// `<location>: <severity>: <message>` with the location as
/// formatRuntimeLocation writes it (`<severity>: <message>` when it is
/// unknown): e.g. `model.onnx: node 'top2' (TopK): error: 'onnx.TopK' op is
/// not lowered by gather ...`, `k.mlir:3:8: error: ...`.
void printDiagnostic(llvm::raw_ostream &os, mlir::Diagnostic &diag);

/// Registers in `context` a diagnostic handler that prints
/// (printDiagnostic, to llvm::errs()) every error whose location holds no
/// file:line:col, such as an imported ONNX node's, which MLIR's
/// SourceMgrDiagnosticHandler would print as `<unknown>:0: error:
/// loc("n"("m.onnx")): ...`; the others go on to the handlers registered
/// before it (which show their source line). Used by gather's tools.
void registerLocationDiagnosticHandler(mlir::MLIRContext *context);

/// The text of formatRuntimeLocation(`loc`), NUL-terminated, as a private
/// constant llvm.mlir.global of `module` (the `location` argument of the
/// runtime's gatherReport* functions), shared by every op with the same
/// text and created through `listener` (may be null) if needed.
mlir::LLVM::GlobalOp
getOrCreateLocationGlobal(mlir::ModuleOp module, mlir::Location loc,
                          mlir::OpBuilder::Listener *listener = nullptr);
/// The type of runtime report function `name` (GatherRuntime.h: the op's
/// location string, then the values of the report): gatherReportIndexError,
/// gatherReportShapeError, or one of the (location, i64, i64, i64) reports
/// (gatherReportIndexErrorsOmitted, gatherReportRankError,
/// gatherReportResultShapeError, gatherReportDestinationShapeError).
mlir::FunctionType getReportFunctionType(mlir::MLIRContext *context,
                                         llvm::StringRef name);

/// The private declaration of report function `name` in `module`, created
/// with getReportFunctionType if missing (callers check reserved names
/// first, see verifyRuntimeSymbols).
mlir::func::FuncOp getOrDeclareReportFunction(mlir::ModuleOp module,
                                              llvm::StringRef name);
} // namespace gather

#endif // GATHER_DIALECT_ONNX_ONNXDIALECT_H
