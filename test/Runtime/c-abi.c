// The runtime header and library are usable from plain C99, without MLIR.
// clang-format off
// RUN: %cc -std=c99 -Wall -Wextra -Werror -pedantic %s -I%birsim_include \
// RUN:   -L%birsim_lib_dir -lbirsim_runtime -Wl,-rpath,%birsim_lib_dir -o %t
// RUN: %t | FileCheck %s
// clang-format on
#include "birsim/Runtime/Runtime.h"

#include <stdio.h>
#include <string.h>

int main(void) {
  /* E4M3 240 + 240 overflows to Inf (0x78): the reduce path uses config 0. */
  uint8_t dst = 0x77, src = 0x77;
  int status = birsim_cast_copy_or_accumulate(BIRSIM_OP_ADD, &dst, &src, 4);
  // CHECK: fp8 add status 0 result 0x78
  printf("fp8 add status %d result 0x%02x\n", status, dst);

  /* float32r cannot accumulate. */
  float acc = 1.0f, x = 2.0f;
  status = birsim_cast_copy_or_accumulate(BIRSIM_OP_ADD, &acc, &x, 17);
  // CHECK: status -3: cast_accumulate: unsupported dtype float32r
  printf("status %d: %s\n", status, birsim_last_error());

  /* Whole-tensor cast saturates by default config. */
  float big[2] = {1.0e6f, -1.0e6f};
  uint8_t fp8[2];
  status = birsim_cast(16, big, 7, fp8, 2, BIRSIM_FP8_SATURATE);
  // CHECK: cast status 0: 0x7b 0xfb
  printf("cast status %d: 0x%02x 0x%02x\n", status, fp8[0], fp8[1]);

  // CHECK: float8_e4m3fn 1 1088
  printf("%s %zu %zu\n", birsim_dtype_name(5), birsim_dtype_size(5),
         birsim_bfp_tile_bytes(BIRSIM_BFP8_B));
  int op = -1;
  // CHECK: min -> -4 op -1
  printf("min -> %d op %d\n", birsim_alu_op_to_memory_reduction(9, &op), op);
  return 0;
}
