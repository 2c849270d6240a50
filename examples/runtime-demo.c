/* A small embedding-bag / scatter-add through the C runtime: the bits the
 * BIR simulator produces, including the cases that surprise people. */
#include "birsim/Runtime/Runtime.h"

#include <stdio.h>
#include <string.h>

enum { FLOAT8E4 = 4, BFLOAT16 = 12, FLOAT32 = 16 };

static void check(int status) {
  if (status != BIRSIM_OK) {
    printf("error: %s\n", birsim_last_error());
  }
}

int main(void) {
  /* Three bags of fp8 E4M3 embeddings scattered into two rows. */
  float values[4] = {200.0f, 100.0f, 1.0f, 0.0625f};
  uint8_t rows[2] = {0, 0}, src[4];
  const int64_t bag[4] = {0, 0, 1, 1};
  check(birsim_cast(FLOAT32, values, FLOAT8E4, src, 4, BIRSIM_FP8_SATURATE));
  check(
      birsim_scatter_accumulate(BIRSIM_OP_ADD, rows, 2, src, bag, 4, FLOAT8E4));
  printf("fp8 E4M3 scatter-add: row0 = 0x%02x (200 and 100 quantize to 192 and"
         " 96; their sum overflows and the reduce path uses FP8 config 0, so"
         " it is +Inf, not 240)\n",
         rows[0]);
  printf("fp8 E4M3 scatter-add: row1 = 0x%02x (1 + 0.0625 is a tie between 1.0"
         " and 1.125: nearest even gives 1.0)\n",
         rows[1]);

  /* bf16 accumulation rounds to nearest even at every step. */
  uint16_t acc = 0x3F80, one_256 = 0x3B80; /* 1.0 and 2^-8 */
  for (int i = 0; i < 4; ++i)
    check(birsim_accumulate(BIRSIM_OP_ADD, &acc, &one_256, BFLOAT16, 1));
  printf("bf16: 1.0 + 4 x 2^-8 = 0x%04x (each add is a tie rounded to even:"
         " still 1.0)\n",
         acc);

  /* min/max never reach the memory kernel through AluOpType2MemoryReduction. */
  int op = -1;
  if (birsim_alu_op_to_memory_reduction(9, &op) != BIRSIM_OK)
    printf("cce_op min: %s\n", birsim_last_error());

  /* One BFP8_b tile: 64 exponent bytes, then 1024 datums. */
  float tile[1024];
  for (int i = 0; i < 1024; ++i)
    tile[i] = 64.0f + 0.25f * (float)(i % 8);
  unsigned char packed[1088];
  birsim_bfp_tie_counters_reset();
  check(birsim_bfp_pack_tiles(BIRSIM_BFP8_B, tile, 1, packed));
  uint64_t ties = 0, up = 0;
  birsim_bfp_tie_counters(&ties, &up);
  printf("bfp8_b tile: shared exponent %u, datums of 64.0..65.75: ", packed[0]);
  for (int i = 0; i < 8; ++i)
    printf("0x%02x ", packed[64 + i]);
  printf("\n  (%llu rounding ties, %llu rounded up to even)\n",
         (unsigned long long)ties, (unsigned long long)up);
  return 0;
}
