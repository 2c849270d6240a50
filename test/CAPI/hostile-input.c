/* The compiler session refuses, with a status and a diagnostic, what
 * upstream MLIR would abort or crash on (docs/Errors.md, D68, D70, D71):
 * a pipeline nested on an op its passes do not run on, text nested deeper
 * than 256 brackets, and bytecode it was not told to trust.
 */
// clang-format off
// RUN: %cc -std=c99 -Wall -Wextra -Werror %s -I%birsim_include -I%mlir_include \
// RUN:   -L%birsim_lib_dir -lbirsim_compiler -Wl,-rpath,%birsim_lib_dir -o %t
// RUN: %t | FileCheck %s
// clang-format on
#include "birsim-c/Compiler.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *kModule = "func.func @f() { return }\n";

static void printLast(BirsimCompilerSession *s) {
  size_t n = birsimCompilerDiagnosticCount(s);
  int severity;
  const char *loc, *msg;
  if (n && birsimCompilerDiagnostic(s, n - 1, &severity, &loc, &msg) == 0)
    printf("  %s: %s: %s\n", loc, birsimCompilerSeverityName(severity), msg);
}

int main(void) {
  BirsimCompilerSession *s = birsimCompilerSessionCreate();
  printf("parse %d\n", birsimCompilerParse(s, kModule, strlen(kModule), "m"));
  // CHECK: parse 0

  /* Each aborted the process in OpPassManager::addPass before. */
  static const char *const pipelines[] = {
      "func.func(birsim-to-llvm)", "gpu.module(birsim-to-llvm)",
      "builtin.module(func.func(sparsifier))", "nonesuch(cse)"};
  for (size_t i = 0; i < sizeof pipelines / sizeof *pipelines; ++i) {
    printf("run %s: %d\n", pipelines[i], birsimCompilerRun(s, pipelines[i]));
    printLast(s);
  }
  // CHECK: run func.func(birsim-to-llvm): 1
  // CHECK-NEXT: <pipeline>: error: invalid pass pipeline 'func.func(birsim-to-llvm)': pipeline 'birsim-to-llvm' cannot run nested on 'func.func': it adds pass 'one-shot-bufferize', which runs on 'builtin.module' only
  // CHECK: run gpu.module(birsim-to-llvm): 1
  // CHECK-NEXT: cannot run nested on 'gpu.module'
  // CHECK: run builtin.module(func.func(sparsifier)): 1
  // CHECK-NEXT: pipeline 'sparsifier' cannot run nested on 'func.func': it adds pass 'sparsification-and-bufferization', which runs on 'builtin.module' only
  // CHECK: run nonesuch(cse): 1
  // CHECK-NEXT: 'nonesuch' is not a registered operation
  printf("run builtin.module(birsim-to-llvm): %d\n",
         birsimCompilerRun(s, "builtin.module(birsim-to-llvm)"));
  // CHECK: run builtin.module(birsim-to-llvm): 0

  /* 257 nested arrays: an error before the parser recurses. */
  char deep[1024] = "module attributes {x.a = ";
  size_t at = strlen(deep);
  for (int i = 0; i < 256; ++i)
    deep[at++] = '[';
  for (int i = 0; i < 256; ++i)
    deep[at++] = ']';
  strcpy(deep + at, "} {}\n");
  printf("deep %d\n", birsimCompilerParse(s, deep, strlen(deep), "deep"));
  printLast(s);
  // CHECK: deep 1
  // CHECK-NEXT: deep:1:281: error: nesting deeper than 256 brackets
  deep[at - 1] = ' '; /* one level less */
  deep[strlen("module attributes {x.a = ")] = ' ';
  printf("256 deep %d\n", birsimCompilerParse(s, deep, strlen(deep), "deep"));
  // CHECK: 256 deep 0

  /* Bytecode: refused until trusted; trusted takes 0 or 1 only. */
  const char *data;
  size_t size;
  birsimCompilerPrint(s, 1, &data, &size);
  char *code = malloc(size);
  memcpy(code, data, size);
  BirsimCompilerSession *t = birsimCompilerSessionCreate();
  printf("untrusted %d\n", birsimCompilerParse(t, code, size, "m.mlirbc"));
  printLast(t);
  // CHECK: untrusted 1
  // CHECK-NEXT: m.mlirbc: error: MLIR bytecode is read only when trusted
  printf("trust 2: %d\n", birsimCompilerTrustBytecode(t, 2));
  printLast(t);
  // CHECK: trust 2: 1
  // CHECK-NEXT: <session>: error: trusted must be 0 or 1, got 2
  printf("trusted %d %d\n", birsimCompilerTrustBytecode(t, 1),
         birsimCompilerParse(t, code, size, "m.mlirbc"));
  // CHECK: trusted 0 0
  printf("null session %d\n", birsimCompilerTrustBytecode(NULL, 1));
  // CHECK: null session 1
  free(code);
  birsimCompilerSessionDestroy(t);
  birsimCompilerSessionDestroy(s);
  return 0;
}
