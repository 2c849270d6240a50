// Negative control for `utils/test.sh --tsan`: two threads accumulating into
// the same destination race inside the runtime, and ThreadSanitizer must say
// so from birsim's own frames (proof that the runtime is instrumented and a
// race in it fails the threaded tests).
// REQUIRES: tsan
// clang-format off
// RUN: %cc -std=c11 %s -I%birsim_include -L%birsim_lib_dir -lbirsim_runtime \
// RUN:   -Wl,-rpath,%birsim_lib_dir -lpthread -o %t
// RUN: env BIRSIM_NUM_THREADS=1 not %t 2>&1 | FileCheck %s
// RUN: env BIRSIM_ISA=portable BIRSIM_NUM_THREADS=1 not %t 2>&1 | FileCheck %s
// clang-format on
// CHECK: WARNING: ThreadSanitizer: data race
// CHECK: libbirsim_runtime.so
#include "birsim/Runtime/Runtime.h"

#include <pthread.h>

enum { kCount = 4096, kFloat32 = 16 };
static float dst[kCount], src[kCount];
static int rounds[2]; // read and written with relaxed atomics: no ordering

// Accumulates until both threads have made 64 calls, so the calls overlap.
static void *accumulate(void *self) {
  int me = *(int *)self;
  while (__atomic_load_n(&rounds[me], __ATOMIC_RELAXED) < 64 ||
         __atomic_load_n(&rounds[1 - me], __ATOMIC_RELAXED) < 64) {
    birsim_accumulate(BIRSIM_OP_ADD, dst, src, kFloat32, kCount);
    __atomic_fetch_add(&rounds[me], 1, __ATOMIC_RELAXED);
  }
  return 0;
}

int main(void) {
  static int ids[2] = {0, 1};
  pthread_t a, b;
  pthread_create(&a, 0, accumulate, &ids[0]);
  pthread_create(&b, 0, accumulate, &ids[1]);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
