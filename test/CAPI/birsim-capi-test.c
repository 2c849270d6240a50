/*===- birsim-capi-test.c - birsim through MLIR's C API and the session ---===*\
|*                                                                            *|
|* As mlir/examples/standalone's standalone-capi-test.c: the dialect         *|
|* registered through its handle, a module with a birsim op parsed, folded   *|
|* and printed with MLIR's C API; then the embedding API's session: text and *|
|* bytecode in and out, a pipeline, remarks, and its errors; run by lit,  *|
|* checked by FileCheck.                                                     *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/
// RUN: birsim-capi-test 2>&1 | FileCheck %s
#include "birsim-c/Compiler.h"
#include "birsim-c/Dialects.h"

#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void printToStdout(MlirStringRef s, void *unused) {
  (void)unused;
  fwrite(s.data, 1, s.length, stdout);
}

static const char *kCast =
    "func.func @f() -> tensor<2xbf16> {\n"
    "  %x = arith.constant dense<[1.0, 3.0e38]> : tensor<2xf32>\n"
    "  %y = birsim.cast %x : tensor<2xf32> to tensor<2xbf16>\n"
    "  return %y : tensor<2xbf16>\n"
    "}\n";

static void testDialectHandle(void) {
  MlirContext ctx = mlirContextCreate();
  mlirDialectHandleRegisterDialect(mlirGetDialectHandle__birsim__(), ctx);
  /* func and arith, from the registry birsimRegisterAllDialects fills. */
  MlirDialectRegistry registry = mlirDialectRegistryCreate();
  birsimRegisterAllDialects(registry);
  mlirContextAppendDialectRegistry(ctx, registry);
  mlirDialectRegistryDestroy(registry);
  mlirContextLoadAllAvailableDialects(ctx);
  MlirDialect birsim =
      mlirContextGetOrLoadDialect(ctx, mlirStringRefCreateFromCString("birsim"));
  printf("dialect loaded: %d\n", !mlirDialectIsNull(birsim));
  // CHECK: dialect loaded: 1
  MlirModule module =
      mlirModuleCreateParse(ctx, mlirStringRefCreateFromCString(kCast));
  if (mlirModuleIsNull(module)) {
    printf("parse failed\n");
    exit(1);
  }
  MlirOperation op = mlirModuleGetOperation(module);
  // CHECK: birsim.cast %{{.*}} : tensor<2xf32> to tensor<2xbf16>
  mlirOperationPrint(op, printToStdout, NULL);
  /* birsim's passes by name, through MLIR's C pass manager. */
  birsimRegisterPasses();
  MlirPassManager pm = mlirPassManagerCreate(ctx);
  MlirOpPassManager opm = mlirPassManagerGetAsOpPassManager(pm);
  MlirLogicalResult parsed = mlirParsePassPipeline(
      opm, mlirStringRefCreateFromCString("builtin.module(birsim-fidelity)"),
      printToStdout,
      NULL);
  printf("\npipeline parsed: %d\n", mlirLogicalResultIsSuccess(parsed));
  // CHECK: pipeline parsed: 1
  mlirPassManagerDestroy(pm);
  mlirModuleDestroy(module);
  mlirContextDestroy(ctx);
}

static void printDiagnostics(BirsimCompilerSession *s) {
  size_t n = birsimCompilerDiagnosticCount(s);
  for (size_t i = 0; i < n; ++i) {
    int severity;
    const char *loc, *msg;
    if (birsimCompilerDiagnostic(s, i, &severity, &loc, &msg) == 0)
      printf("diagnostic %d at %s: %s\n", severity, loc, msg);
  }
}

static void testSession(void) {
  printf("severities %s %s %s %s %d\n", birsimCompilerSeverityName(0),
         birsimCompilerSeverityName(1), birsimCompilerSeverityName(2),
         birsimCompilerSeverityName(3), birsimCompilerSeverityName(4) == NULL);
  // CHECK: severities error warning note remark 1
  printf("version %s\n", birsimCompilerVersion());
  // CHECK: version {{[0-9]+\.[0-9]+\.[0-9]+}}
  BirsimCompilerSession *s = birsimCompilerSessionCreate();
  int rc = birsimCompilerParse(s, kCast, strlen(kCast), "cast.mlir");
  printf("parse %d\n", rc);
  // CHECK: parse 0
  rc = birsimCompilerRun(s, "birsim-fidelity,canonicalize");
  printf("run %d\n", rc);
  // CHECK: run 0
  printDiagnostics(s);
  // CHECK: diagnostic 3 at cast.mlir:3:{{[0-9]+}}: cast 'f32' to 'bf16': of 2 values, 1 inexact
  // CHECK-NOT: diagnostic
  fputs(birsimCompilerDiagnostics(s), stdout);
  // CHECK: cast.mlir:3:{{[0-9]+}}: remark: cast 'f32' to 'bf16'
  const char *data;
  size_t size;
  rc = birsimCompilerPrint(s, 0, &data, &size);
  printf("text %d\n%s", rc, data);
  // CHECK: text 0
  // CHECK: arith.constant dense<[1.000000e+00, 3.004060e+38]> : tensor<2xbf16>
  // CHECK-NOT: birsim.cast

  /* Bytecode out, then in again in a second session. */
  rc = birsimCompilerPrint(s, 1, &data, &size);
  char *copy = malloc(size);
  memcpy(copy, data, size);
  printf("bytecode %d, magic %02x%02x%02x%02x\n", rc, (unsigned char)copy[0],
         (unsigned char)copy[1], (unsigned char)copy[2], (unsigned char)copy[3]);
  // CHECK: bytecode 0, magic 4d4cef52
  BirsimCompilerSession *t = birsimCompilerSessionCreate();
  rc = birsimCompilerTrustBytecode(t, 1); /* bytecode this library wrote */
  rc |= birsimCompilerParse(t, copy, size, "cast.mlirbc");
  free(copy);
  rc |= birsimCompilerPrint(t, 0, &data, &size);
  printf("bytecode read back %d: %d\n", rc,
         strstr(data, "3.004060e+38") != NULL);
  // CHECK: bytecode read back 0: 1
  birsimCompilerSessionDestroy(t);

  /* Errors: the module is kept; the reason is a diagnostic. */
  rc = birsimCompilerRun(s, "no-such-pass");
  printf("bad pipeline %d\n", rc);
  // CHECK: bad pipeline 1
  fputs(birsimCompilerDiagnostics(s), stdout);
  // CHECK: <pipeline>: error: invalid pass pipeline 'no-such-pass': {{.*}}no-such-pass
  const char *bad = "func.func @g(%x: tensor<2xf32>) -> tensor<2xf32> {\n"
                    "  %r = birsim.reduce add %x, %x : tensor<2x!birsim.float32r>\n"
                    "  return %x : tensor<2xf32>\n}\n";
  rc = birsimCompilerParse(s, bad, strlen(bad), "bad.mlir");
  printf("bad module %d\n", rc);
  // CHECK: bad module 1
  fputs(birsimCompilerDiagnostics(s), stdout);
  // CHECK: bad.mlir:2:{{[0-9]+}}: error:
  rc = birsimCompilerPrint(s, 0, &data, &size);
  printf("kept %d: %d\n", rc, strstr(data, "3.004060e+38") != NULL);
  // CHECK: kept 0: 1
  rc = birsimCompilerParse(s, NULL, 4, NULL);
  printf("null data %d\n", rc);
  // CHECK: null data 1
  birsimCompilerSessionDestroy(s);
}

int main(void) {
  testDialectHandle();
  testSession();
  return 0;
}
