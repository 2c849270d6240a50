/* A C program on libbirsim_runtime alone. */
#include "birsim/Runtime/Runtime.h"

#include <stdio.h>

int main(void) {
  unsigned char dst = 0x77, src = 0x77; /* float8e4 240, 240 */
  int status = birsim_cast_copy_or_accumulate(BIRSIM_OP_ADD, &dst, &src, 4);
  printf("status %d, 240 + 240 in float8e4 = 0x%02X\n", status, dst);
  status = birsim_accumulate(BIRSIM_OP_ADD, &dst, &src, 17, 1);
  printf("status %d: %s\n", status, birsim_last_error());
  return 0;
}
