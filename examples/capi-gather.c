/*===- capi-gather.c - gather's dialect and pipeline from C ---------------===*\
|*                                                                            *|
|* Part of the gather project (an example of using an installed gather).      *|
|*                                                                            *|
|* Loads the onnx dialect into an MlirContext through gather's C API, parses  *|
|* the first example of the ONNX GatherElements spec, lowers it with the      *|
|* onnx-to-llvm pipeline and prints both; then shows the diagnostic of an     *|
|* invalid op.                                                                *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#include "gather-c/Dialects.h"

#include "mlir-c/Diagnostics.h"
#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"

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
  return 0;
}
