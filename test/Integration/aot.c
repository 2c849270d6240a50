// Ahead of time: lower to LLVM IR, compile with clang-22, link against
// libbirsim_runtime.so, run.
// RUN: birsim-opt %S/Inputs/aot-kernel.mlir --birsim-to-llvm | mlir-translate --mlir-to-llvmir -o %t.ll
// RUN: %cc -O2 -Wno-override-module %t.ll %s -I%birsim_include -L%birsim_lib_dir -lbirsim_runtime -Wl,-rpath,%birsim_lib_dir -o %t
// RUN: %t | FileCheck %s
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
  return 0;
}
