/*===- gather-capi-pipeline.c - Pipelines and options from a C host -------===*\
|*                                                                            *|
|* Part of the gather project.                                                *|
|* Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for        *|
|* license information.                                                       *|
|* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception                    *|
|*                                                                            *|
|* A host with no C++ in it, as an embedder writes one on gather's C API:     *|
|*   gather-capi-pipeline pipeline TEXT  parses TEXT with                     *|
|*     mlirParsePassPipeline on a pass manager on builtin.module;             *|
|*   gather-capi-pipeline options TEXT   compiles a kernel with               *|
|*     mlirGatherCompileSource and the pipeline options TEXT.                 *|
|*   gather-capi-pipeline run FILE       compiles the module in FILE with     *|
|*     mlirGatherCompileSource and calls its `void main(void)`.               *|
|* Prints "parsed" / "compiled" / "ran", or the error the C API gave, and     *|
|* exits 0 or 1 (test/Pipelines/pipeline-anchor.test,                         *|
|* pipeline-options-errors.test, test/Integration/CUDARuntime/                *|
|* jit-kernel-api.test).                                                      *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#include "gather-c/Dialects.h"
#include "gather-c/Kernel.h"

#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"

#include <stdio.h>
#include <string.h>

static void printToStdout(MlirStringRef text, void *userData) {
  (void)userData;
  fwrite(text.data, 1, text.length, stdout);
}

static const char *kernel = "func.func @k(%d: tensor<2x2xf32>, %i: "
                            "tensor<2x2xi64>) -> tensor<2x2xf32> {\n"
                            "  %0 = onnx.GatherElements %d, %i axis = 1 : "
                            "tensor<2x2xf32>, tensor<2x2xi64>\n"
                            "  return %0 : tensor<2x2xf32>\n"
                            "}\n";

/// A context with the registrations `addDependencies` puts into a registry.
static MlirContext
createContext(void (*addDependencies)(MlirDialectRegistry registry)) {
  MlirContext context = mlirContextCreate();
  MlirDialectRegistry registry = mlirDialectRegistryCreate();
  addDependencies(registry);
  mlirContextAppendDialectRegistry(context, registry);
  mlirDialectRegistryDestroy(registry);
  return context;
}

/// Parses `text` as a pass pipeline on builtin.module.
static int parsePipeline(const char *text) {
  MlirContext context = createContext(mlirGatherRegisterPipelineDependencies);
  mlirGatherRegisterPasses();
  MlirPassManager pm = mlirPassManagerCreate(context);
  MlirOpPassManager opPM = mlirPassManagerGetAsOpPassManager(pm);
  int failed = mlirLogicalResultIsFailure(mlirParsePassPipeline(
      opPM, mlirStringRefCreateFromCString(text), printToStdout, NULL));
  printf("%s\n", failed ? "not parsed" : "parsed");
  mlirPassManagerDestroy(pm);
  mlirContextDestroy(context);
  return failed;
}

static void printError(MlirStringRef text, void *userData) {
  (void)userData;
  printf("error: %.*s\n", (int)text.length, text.data);
}

/// Compiles a kernel with the pipeline options `text`.
static int compileWithOptions(const char *text) {
  MlirContext context = createContext(mlirGatherRegisterJitDependencies);
  MlirExecutionEngine engine;
  int failed = mlirLogicalResultIsFailure(mlirGatherCompileSource(
      context, mlirStringRefCreateFromCString(kernel),
      mlirStringRefCreateFromCString(""), mlirStringRefCreateFromCString(text),
      0, &engine, printError, NULL));
  printf("%s\n", failed ? "not compiled" : "compiled");
  if (!failed)
    mlirExecutionEngineDestroy(engine);
  mlirContextDestroy(context);
  return failed;
}

/// Compiles the kernel (or, with `bad`, a module whose op gather does not
/// lower) with the debug options: the IR tree, the reproducer and the object
/// file under `directory`.
static int compileForDebug(const char *directory, int bad) {
  static const char *badSource = "func.func @k() {\n"
                                 "  \"onnx.Relu\"() : () -> ()\n"
                                 "  return\n"
                                 "}\n";
  char ir[4096], reproducer[4096], object[4096];
  snprintf(ir, sizeof(ir), "%s/ir", directory);
  snprintf(reproducer, sizeof(reproducer), "%s/reproducer.mlir", directory);
  snprintf(object, sizeof(object), "%s/k.o", directory);
  MlirGatherJitDebugOptions debug = {mlirStringRefCreateFromCString(ir),
                                     mlirStringRefCreateFromCString(reproducer),
                                     mlirStringRefCreateFromCString(object)};
  MlirContext context = createContext(mlirGatherRegisterJitDependencies);
  MlirExecutionEngine engine;
  int failed =
      mlirLogicalResultIsFailure(mlirGatherCompileSourceWithDebugOptions(
          context, mlirStringRefCreateFromCString(bad ? badSource : kernel),
          mlirStringRefCreateFromCString(""),
          mlirStringRefCreateFromCString("num-threads=1"), 2, debug, &engine,
          printError, NULL));
  printf("%s\n", failed ? "not compiled" : "compiled");
  if (!failed)
    mlirExecutionEngineDestroy(engine);
  mlirContextDestroy(context);
  return failed;
}

/// Compiles the module in the file `path` and calls its `main`.
static int runFile(const char *path) {
  static char source[1 << 16];
  FILE *file = fopen(path, "r");
  if (!file) {
    fprintf(stderr, "cannot open %s\n", path);
    return 1;
  }
  size_t size = fread(source, 1, sizeof(source) - 1, file);
  fclose(file);
  source[size] = 0;
  MlirContext context = createContext(mlirGatherRegisterJitDependencies);
  MlirExecutionEngine engine;
  int failed = mlirLogicalResultIsFailure(mlirGatherCompileSource(
      context, mlirStringRefCreateFromCString(source),
      mlirStringRefCreateFromCString(path), mlirStringRefCreateFromCString(""),
      0, &engine, printError, NULL));
  if (!failed) {
    void (*entry)(void) = (void (*)(void))mlirExecutionEngineLookup(
        engine, mlirStringRefCreateFromCString("main"));
    failed = entry == NULL;
    if (entry)
      entry();
    printf("%s\n", failed ? "no main" : "ran");
    mlirExecutionEngineDestroy(engine);
  }
  mlirContextDestroy(context);
  return failed;
}

int main(int argc, char **argv) {
  if (argc == 3 && strcmp(argv[1], "pipeline") == 0)
    return parsePipeline(argv[2]);
  if (argc == 3 && strcmp(argv[1], "options") == 0)
    return compileWithOptions(argv[2]);
  if (argc == 3 && strcmp(argv[1], "run") == 0)
    return runFile(argv[2]);
  if (argc == 3 && strcmp(argv[1], "debug") == 0)
    return compileForDebug(argv[2], 0);
  if (argc == 3 && strcmp(argv[1], "debug-bad") == 0)
    return compileForDebug(argv[2], 1);
  fprintf(stderr,
          "usage: gather-capi-pipeline pipeline|options TEXT | run FILE | "
          "debug|debug-bad DIR\n");
  return 2;
}
