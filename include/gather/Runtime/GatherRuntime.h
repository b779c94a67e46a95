//===- GatherRuntime.h - Run-time support for compiled code -----*- C++ -*-===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// C functions that code compiled by gather calls when an input that the
// verifier could not check at compile time turns out invalid at run time
// (ONNX GatherElements, opset 13: "It is an error if any of the index values
// are out of bounds"). They live in libgather_runtime.so; gather-runner links
// it, other hosts load it (e.g. `mlir-runner --shared-libs=.../lib/
// libgather_runtime.so`, `lli --dlopen=...`) or link it.
//
// Each report formats one message in the form of the compiler's
// diagnostics, `<location>: error: <text>` (`error: <text>` without a
// location), e.g.
//   model.mlir:12:8: error: 'onnx.GatherElements' op operand 'indices' holds
//   value 7 at position [1, 0], outside the valid range [-3, 2] for axis 1
//   of size 3
// and passes it to the error handler. The default handler flushes stdout,
// prints the message and a newline to stderr and ends the process with exit
// status 1 (no signal, no abort). A host that wants to continue installs its
// own handler; the compiled code then goes on safely: it never reads outside
// `data` (out-of-range indices are clamped, and a gather whose shapes do not
// fit is skipped), but the result is unspecified.
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_RUNTIME_GATHERRUNTIME_H
#define GATHER_RUNTIME_GATHERRUNTIME_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// The in-memory form of one `!onnx.string` element: `size` bytes at `data`
/// (UTF-8 by convention, any bytes allowed, no terminator needed). Strings
/// are immutable; a tensor of strings does not own the bytes, which live in
/// the module's constants or in the caller's memory for the duration of the
/// call. LLVM type: !llvm.struct<(ptr, i64)>.
typedef struct GatherString {
  const char *data;
  int64_t size;
} GatherString;

/// Receives the text of one run-time error (`<location>: error: <text>`,
/// NUL-terminated, no newline) and the `userData` given to
/// gatherSetErrorHandler (as MLIR's
/// mlirContextAttachDiagnosticHandler does). Reports may come from several
/// threads at once (threaded kernels).
typedef void (*GatherErrorHandler)(const char *message, void *userData);

/// Installs `handler`, to be called with `userData`, for all later reports
/// of kernels without a handler of their own (gatherSetKernelErrorHandler);
/// a null `handler` restores the default (print to stderr, exit status 1).
/// The pair is replaced as one: a report never sees the new handler with
/// the old `userData`.
void gatherSetErrorHandler(GatherErrorHandler handler, void *userData);

/// The error handler of one compiled module (a kernel): every module with
/// run-time reports defines one, zero-initialized, as the weak global
/// `__gather_error_sink` (kErrorSinkName in gather/RuntimeABI/RuntimeABI.h),
/// so that a JIT-compiled kernel has its own and kernels compiled ahead of
/// time and linked into one program share one. Hosts get its address from
/// the engine (gather::setKernelErrorHandler in
/// gather/ExecutionEngine/JitCompiler.h, mlirGatherSetKernelErrorHandler in
/// gather-c/Kernel.h) or from the linker, never write it directly.
typedef struct GatherErrorSink {
  GatherErrorHandler handler;
  void *userData;
} GatherErrorSink;

/// Installs `handler` and `userData` for the reports of the module that
/// defines `sink`, from any thread (OpenMP worker threads included); a null
/// `handler` sends them to the process's handler (gatherSetErrorHandler)
/// again. The pair is replaced as one.
void gatherSetKernelErrorHandler(GatherErrorSink *sink,
                                 GatherErrorHandler handler, void *userData);

/// Where a report comes from: the `site` argument of every report below
/// points to one of these, a constant of the compiled module: its module's
/// sink, then the source location of the op as the compiler printed it
/// (`file.mlir:12:8`, or the ONNX model file and node for imported
/// models), NUL-terminated, possibly empty. LLVM type:
/// !llvm.struct<(ptr, array<N x i8>)>.
typedef struct GatherReportSite {
  GatherErrorSink *sink;
  char location[1]; // (N bytes in the compiled module.)
} GatherReportSite;

/// Every report takes as `site` the op that failed (GatherReportSite; null
/// when unknown) and goes to the handler of its module's sink, or the
/// process's. The message starts with `<location>: error:
/// 'onnx.GatherElements' op ` and uses the words of the verifier's
/// diagnostic for the same rule (see the op's description in ONNXOps.td).

/// Called by compiled onnx.GatherElements code: index `value` at
/// `position[0..rank)` of `indices` is outside [-axisSize, axisSize - 1]
/// along `axis` (normalized to [0, rank)). The compiled code reports the
/// first 10 bad positions of one execution of the op in row-major order,
/// then the number of the others with gatherReportIndexErrorsOmitted.
void gatherReportIndexError(const GatherReportSite *site, int64_t value,
                            const int64_t *position, int64_t rank, int64_t axis,
                            int64_t axisSize);

/// Called by compiled onnx.GatherElements code after 10 calls of
/// gatherReportIndexError for one execution of the op: `count` more index
/// values were out of range.
void gatherReportIndexErrorsOmitted(const GatherReportSite *site, int64_t count,
                                    int64_t axis, int64_t axisSize);

/// Called by compiled onnx.GatherElements code: `indices` has size
/// `indicesSize` in dimension `dim` (!= axis), larger than `data`'s size
/// `dataSize` there.
void gatherReportShapeError(const GatherReportSite *site, int64_t dim,
                            int64_t indicesSize, int64_t dataSize,
                            int64_t axis);

/// Called by compiled onnx.GatherElements code: `indices` has size
/// `indicesSize` in dimension `dim`, but the op's declared result type has
/// the static size `resultSize` there.
void gatherReportResultShapeError(const GatherReportSite *site, int64_t dim,
                                  int64_t indicesSize, int64_t resultSize);

/// Called by compiled onnx.GatherElements code whose result is copied into a
/// destination (bufferization.materialize_in_destination, linalg.copy) with
/// dynamic sizes: the result has size `resultSize` in dimension `dim`, the
/// destination `destinationSize`; `site` is the copy's. The copy is
/// skipped.
void gatherReportDestinationShapeError(const GatherReportSite *site,
                                       int64_t dim, int64_t resultSize,
                                       int64_t destinationSize);

/// Called by compiled code with shard-grid and shard-io=split
/// (docs/Sharding.md) on every process when the slab that argument
/// `argument` of a function got on process `process` has size `given` in
/// dimension `dim`, not `expected`: that process's block of the
/// `wholeSize` indices of the dimension split over `processes` processes
/// (gather/Runtime/ShardBlocks.h). The process then ends (status 1), even
/// with a handler that returns.
void gatherReportSlabShapeError(const GatherReportSite *site, int64_t argument,
                                int64_t dim, int64_t process, int64_t expected,
                                int64_t given, int64_t wholeSize,
                                int64_t processes);

/// Called by compiled onnx.GatherElements code when an operand of unranked
/// type has rank `rank` at run time but the other operand has rank
/// `expectedRank`. `operand` is 0 for 'data', 1 for 'indices'.
void gatherReportRankError(const GatherReportSite *site, int64_t operand,
                           int64_t rank, int64_t expectedRank);

/// Called by compiled code (gather-check-allocations) when a heap buffer
/// cannot be had: `bytes` is the size requested (-1: larger than INT64_MAX
/// bytes, not even attempted), `what` a NUL-terminated description of the
/// buffer made at compile time (the op that needs it, its source location
/// and memref type). Reports "out of memory: cannot allocate <bytes> bytes
/// for <what>". Does not return: the code cannot go on without the buffer,
/// so when the handler returns the process ends with exit status 1.
void gatherReportAllocationError(int64_t bytes, const char *what);

/// Called by compiled code (gather-check-allocations) around every heap
/// allocation, unconditionally: when `failed` is non-zero, reports as
/// gatherReportAllocationError(bytes, what) does, from `site` (the
/// allocation's), and does not return; otherwise returns at once. (One call
/// instead of a branch keeps the compiled code straight-line.)
void gatherReportAllocationErrorIf(int32_t failed, int64_t bytes,
                                   const GatherReportSite *site,
                                   const char *what);

/// Printing of entry-point results (used by gather-runner). Each prints one
/// line to stdout:
///   result <index>: tensor<<sizes>x<element type>> = <values>
/// with the run-time sizes, values nested in brackets per dimension
/// (`[[1, 2], [3, 4]]`, `[]` for a zero-size dimension, a bare value for
/// rank 0), and elements as:
///   - integers in decimal, unsigned ones as unsigned (ui8 255);
///   - i1 as `true` / `false`;
///   - floats (f16, bf16, f32, f64) as the shortest decimal that reads back
///     to the same value, `-0` for negative zero, `inf` / `-inf`, and NaN as
///     `nan(0x<bits>)` with the raw bits of the element type;
///   - complex as `(re, im)`;
///   - strings in double quotes, with `\"`, `\\`, `\n`, `\t` and `\XX` (hex)
///     for other control bytes; other bytes, UTF-8 included, as is.
/// Called through MLIR's C interface with an unranked memref descriptor, e.g.
/// `func.func private @gatherPrintF32(tensor<*xf32>, i64)
///  attributes {llvm.emit_c_interface}`. One function per element type of
/// gather/Runtime/ElementTypes.def, named by its suffix (F32, UI8,
/// ComplexF64, String for !onnx.string, ...).
/// The printing is bounded (gatherSetPrintLimit), by default to
/// GATHER_DEFAULT_PRINT_LIMIT items.
void _mlir_ciface_gatherPrintF32(void *memref, int64_t resultIndex);

/// The number of items the gatherPrint* functions print by default.
#define GATHER_DEFAULT_PRINT_LIMIT 1000000

/// Bounds what the gatherPrint* functions print, all results together, from
/// this call on: at most `limit` items, an item being an element or an empty
/// group (`[]`, a zero-size dimension; the brackets around them are not
/// counted, so a result's text is at most about `limit` times its rank and
/// longest element long). Once the limit is reached, a result's line ends
/// with ` ... (<n> more elements not printed; --print-limit=0 prints all)`
/// (`empty groups` for an empty tensor; `--print-limit` is gather-runner's
/// option) after what was printed, its brackets left open, and later results
/// print only their type and that marker. 0 prints everything. Not a
/// run-time error; not thread-safe with a gatherPrint* call in progress.
void gatherSetPrintLimit(uint64_t limit);

/// Comparison with expected outputs (used by modules that
/// `gather-translate --import-onnx --onnx-expected=...` writes). Prints
/// `output <index>: <n> elements match`, or reports as one run-time error
/// a shape difference or the number of mismatching elements with the first
/// 10 (position, expected, actual; values in the print format above).
/// Elements match bit for bit when `atol` and `rtol` are 0 (every type,
/// NaN payloads and -0 included); otherwise floats (and complex parts) match
/// when |actual - expected| <= atol + rtol * |expected|, NaN matching NaN.
/// Integers, bool and strings always compare exactly. A negative or NaN
/// tolerance is reported as a run-time error (nothing is compared). Same
/// suffixes as gatherPrint.
void _mlir_ciface_gatherCompareF32(void *actual, void *expected, int64_t index,
                                   double atol, double rtol);

#ifdef __cplusplus
} // extern "C"
#endif

#endif // GATHER_RUNTIME_GATHERRUNTIME_H
