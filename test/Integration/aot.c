// Ahead of time: lower to LLVM IR, compile with clang-22, link against
// libbirsim_runtime.so, run.
// RUN: birsim-opt %S/Inputs/aot-kernel.mlir --birsim-to-llvm | mlir-translate --mlir-to-llvmir -o %t.ll
// RUN: %cc -O2 -Wno-override-module %t.ll %s -I%birsim_include -L%birsim_lib_dir -lbirsim_runtime -Wl,-rpath,%birsim_lib_dir -o %t
// RUN: %t | FileCheck %s
#include "birsim/Runtime/Runtime.h"

#include <stdint.h>
#include <stdio.h>

typedef struct {
  void *allocated;
  void *aligned;
  int64_t offset;
  int64_t sizes[1];
  int64_t strides[1];
} MemRef1D;

void _mlir_ciface_accumulate_fp8(MemRef1D *dst, MemRef1D *src);
void _mlir_ciface_quantize(MemRef1D *x, MemRef1D *y);
void _mlir_ciface_scatter_add(MemRef1D *src, MemRef1D *dst, MemRef1D *idx);

/* An embedder's own handling of run-time errors (birsim_set_status_handler):
 * the lowered code continues after the failed call. */
static void onError(int status, const char *what, const char *message) {
  printf("handled %d in %s: %s\n", status, what, message);
}

static MemRef1D view(void *data, int64_t n) {
  MemRef1D m = {data, data, 0, {n}, {1}};
  return m;
}

int main(void) {
  /* E4M3: 240 + 240 -> +Inf (0x78); 1 + 1 -> 2 (0x40); -0 + +0 -> +0. */
  uint8_t dst[3] = {0x77, 0x38, 0x80}, src[3] = {0x77, 0x38, 0x00};
  MemRef1D d = view(dst, 3), s = view(src, 3);
  _mlir_ciface_accumulate_fp8(&d, &s);
  // CHECK: fp8 add: 0x78 0x40 0x00
  printf("fp8 add: 0x%02x 0x%02x 0x%02x\n", dst[0], dst[1], dst[2]);

  /* Saturating cast (default config 0x0001): 1e6 -> 57344 (0x7b). */
  float x[3] = {1.0e6f, -1.0e6f, 1.5f};
  uint8_t y[3] = {0, 0, 0};
  MemRef1D xv = view(x, 3), yv = view(y, 3);
  _mlir_ciface_quantize(&xv, &yv);
  // CHECK: fp8 cast: 0x7b 0xfb 0x3e
  printf("fp8 cast: 0x%02x 0x%02x 0x%02x\n", y[0], y[1], y[2]);

  /* An index out of range, with a handler: nothing written, the program
   * goes on. */
  float values[2] = {1.0f, 2.0f}, acc[4] = {0, 0, 0, 0};
  int64_t idx[2] = {1, 4};
  MemRef1D sv = view(values, 2), dv = view(acc, 4), iv = view(idx, 2);
  birsim_set_status_handler(onError);
  _mlir_ciface_scatter_add(&sv, &dv, &iv);
  // CHECK: handled -6 in birsim.indirect_save_accumulate at {{.*}}aot-kernel.mlir:13:3: scatter index 4 is outside the destination of 4 elements
  // CHECK-NEXT: after: 0 0 0 0
  printf("after: %g %g %g %g\n", acc[0], acc[1], acc[2], acc[3]);
  return 0;
}
