/*===- capi-gather.c - gather's dialect and pipeline from C ---------------===*\
|*                                                                            *|
|* Part of the gather project (an example of using an installed gather).      *|
|* Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for        *|
|* license information.                                                       *|
|* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception                    *|
|*                                                                            *|
|* Loads the onnx dialect into an MlirContext through gather's C API, parses  *|
|* the first example of the ONNX GatherElements spec, lowers it with the      *|
|* onnx-to-llvm pipeline and prints both; then shows the diagnostic of an     *|
|* invalid op. Then runs a kernel from C alone: compiles it with              *|
|* mlirGatherCompileSource, calls it on the caller's buffers (the spec's      *|
|* second example), reports a bad index value through its own handler, shows *|
|* a compile error as a value, and destroys the engine.                       *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#include "gather-c/Dialects.h"
#include "gather-c/Kernel.h"
#include "gather/Runtime/GatherRuntime.h"

#include "mlir-c/Diagnostics.h"
#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"

#include <stdint.h>
#include <stdio.h>

static void printToStdout(MlirStringRef text, void *userData) {
  (void)userData;
  fwrite(text.data, 1, text.length, stdout);
}

static MlirLogicalResult printDiagnostic(MlirDiagnostic diagnostic,
                                         void *userData) {
  (void)userData;
  printf("diagnostic: ");
  mlirDiagnosticPrint(diagnostic, printToStdout, NULL);
  printf("\n");
  return mlirLogicalResultSuccess();
}

static const char *spec =
    "func.func @gather(%d: tensor<2x2xf32>, %i: tensor<2x2xi64>) -> "
    "tensor<2x2xf32> {\n"
    "  %0 = onnx.GatherElements %d, %i axis = 1 : tensor<2x2xf32>, "
    "tensor<2x2xi64>\n"
    "  return %0 : tensor<2x2xf32>\n"
    "}\n";

static const char *invalid =
    "func.func @bad(%d: tensor<2x2xf32>, %i: tensor<2x2xi64>) -> "
    "tensor<2x2xf32> {\n"
    "  %0 = onnx.GatherElements %d, %i axis = 2 : tensor<2x2xf32>, "
    "tensor<2x2xi64>\n"
    "  return %0 : tensor<2x2xf32>\n"
    "}\n";

/// A kernel in destination-passing style: `out` receives the gather of
/// `data` along axis 0 at `indices` (the spec's second example).
static const char *kernel =
    "func.func @gather_axis0(%data: memref<3x3xf32>, %indices: "
    "memref<2x3xi64>, %out: memref<2x3xf32>) attributes "
    "{llvm.emit_c_interface} {\n"
    "  %d = bufferization.to_tensor %data restrict : memref<3x3xf32> to "
    "tensor<3x3xf32>\n"
    "  %i = bufferization.to_tensor %indices restrict : memref<2x3xi64> to "
    "tensor<2x3xi64>\n"
    "  %r = onnx.GatherElements %d, %i axis = 0 : tensor<3x3xf32>, "
    "tensor<2x3xi64>\n"
    "  bufferization.materialize_in_destination %r in restrict writable %out "
    ": (tensor<2x3xf32>, memref<2x3xf32>) -> ()\n"
    "  return\n"
    "}\n";

/// A rank-2 memref as MLIR's C interface passes it (StridedMemRefType in
/// mlir/ExecutionEngine/CRunnerUtils.h).
typedef struct {
  void *allocated;
  void *aligned;
  int64_t offset;
  int64_t sizes[2];
  int64_t strides[2];
} Memref2D;

static Memref2D memref2D(void *data, int64_t rows, int64_t cols) {
  Memref2D m = {data, data, 0, {rows, cols}, {cols, 1}};
  return m;
}

static void printError(MlirStringRef text, void *userData) {
  printf("%s: %.*s\n", (const char *)userData, (int)text.length, text.data);
}

static void recordReport(const char *message, void *userData) {
  printf("reported: %s\n", message);
  ++*(int *)userData;
}

/// Compiles the kernel, runs it on good and on bad indices, then compiles an
/// invalid one.
static int runKernels(MlirContext context) {
  MlirExecutionEngine engine;
  if (mlirLogicalResultIsFailure(mlirGatherCompileSource(
          context, mlirStringRefCreateFromCString(kernel),
          mlirStringRefCreateFromCString(""),
          mlirStringRefCreateFromCString("num-threads=1"), 3, &engine,
          printError, "compile error")))
    return 1;
  void (*gather)(Memref2D *, Memref2D *, Memref2D *) =
      (void (*)(Memref2D *, Memref2D *, Memref2D *))mlirExecutionEngineLookup(
          engine, mlirStringRefCreateFromCString("_mlir_ciface_gather_axis0"));
  if (!gather)
    return 1;
  float data[9] = {1, 2, 3, 4, 5, 6, 7, 8, 9};
  int64_t indices[6] = {1, 2, 0, 2, 0, 0};
  float out[6] = {0};
  Memref2D dataRef = memref2D(data, 3, 3);
  Memref2D indicesRef = memref2D(indices, 2, 3);
  Memref2D outRef = memref2D(out, 2, 3);
  gather(&dataRef, &indicesRef, &outRef);
  printf("kernel: [[%g, %g, %g], [%g, %g, %g]]\n", out[0], out[1], out[2],
         out[3], out[4], out[5]);

  int reports = 0;
  if (mlirLogicalResultIsFailure(mlirGatherSetKernelErrorHandler(
          engine, recordReport, &reports, printError, "handler error")))
    return 1;
  indices[4] = 7;
  gather(&dataRef, &indicesRef, &outRef);
  printf("reports: %d\n", reports);
  mlirExecutionEngineDestroy(engine);

  MlirLogicalResult status =
      mlirGatherCompileSource(context, mlirStringRefCreateFromCString(invalid),
                              mlirStringRefCreateFromCString("invalid.mlir"),
                              mlirStringRefCreateFromCString(""), 3, &engine,
                              printError, "compile error");
  printf("invalid kernel compiled: %s, engine null: %s\n",
         mlirLogicalResultIsFailure(status) ? "no" : "yes",
         mlirExecutionEngineIsNull(engine) ? "yes" : "no");
  status = mlirGatherCompileSource(
      context, mlirStringRefCreateFromCString(kernel),
      mlirStringRefCreateFromCString(""),
      mlirStringRefCreateFromCString("num-threads=zero"), 3, &engine,
      printError, "options error");
  return mlirLogicalResultIsFailure(status) ? 0 : 1;
}

int main(void) {
  MlirContext context = mlirContextCreate();
  MlirDialectRegistry registry = mlirDialectRegistryCreate();
  mlirGatherRegisterPipelineDependencies(registry);
  mlirContextAppendDialectRegistry(context, registry);
  mlirDialectRegistryDestroy(registry);
  mlirGatherRegisterPasses();
  mlirContextAttachDiagnosticHandler(context, printDiagnostic, NULL, NULL);

  MlirStringRef name =
      mlirDialectHandleGetNamespace(mlirGetDialectHandle__onnx__());
  printf("dialect: %.*s\n", (int)name.length, name.data);

  MlirModule module =
      mlirModuleCreateParse(context, mlirStringRefCreateFromCString(spec));
  if (mlirModuleIsNull(module))
    return 1;
  MlirOperation op = mlirModuleGetOperation(module);
  mlirOperationPrint(op, printToStdout, NULL);

  MlirPassManager pm = mlirPassManagerCreate(context);
  MlirLogicalResult status =
      mlirParsePassPipeline(mlirPassManagerGetAsOpPassManager(pm),
                            mlirStringRefCreateFromCString(
                                "builtin.module(onnx-to-llvm{num-threads=1})"),
                            printToStdout, NULL);
  if (mlirLogicalResultIsFailure(status))
    return 1;
  if (mlirLogicalResultIsFailure(mlirPassManagerRunOnOp(pm, op)))
    return 1;
  printf("lowered:\n");
  mlirOperationPrint(op, printToStdout, NULL);
  mlirPassManagerDestroy(pm);
  mlirModuleDestroy(module);

  MlirModule bad =
      mlirModuleCreateParse(context, mlirStringRefCreateFromCString(invalid));
  printf("invalid module parsed: %s\n", mlirModuleIsNull(bad) ? "no" : "yes");
  if (!mlirModuleIsNull(bad))
    mlirModuleDestroy(bad);
  mlirContextDestroy(context);

  // Kernels: a context with the JIT's registrations, and no diagnostic
  // handler of its own (errors come back as values).
  MlirContext jitContext = mlirContextCreate();
  MlirDialectRegistry jitRegistry = mlirDialectRegistryCreate();
  mlirGatherRegisterJitDependencies(jitRegistry);
  mlirContextAppendDialectRegistry(jitContext, jitRegistry);
  mlirDialectRegistryDestroy(jitRegistry);
  int exitStatus = runKernels(jitContext);
  mlirContextDestroy(jitContext);
  return exitStatus;
}
