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

enum { kCount = 512, kFloat32 = 16, kRounds = 1024, kPairs = 8 };
static float dst[kPairs][kCount], src[kCount];

// Two threads accumulate into one destination until both have made kRounds
// calls, so the calls overlap; kPairs such pairs, one after another, each
// on its own destination (ThreadSanitizer misses a race now and then).
struct Pair {
  float *dst;
  int rounds[2]; // read and written with relaxed atomics: no ordering
};
struct Side {
  struct Pair *pair;
  int me;
};

static void *accumulate(void *arg) {
  struct Side *side = arg;
  struct Pair *pair = side->pair;
  int me = side->me;
  while (__atomic_load_n(&pair->rounds[me], __ATOMIC_RELAXED) < kRounds ||
         __atomic_load_n(&pair->rounds[1 - me], __ATOMIC_RELAXED) < kRounds) {
    birsim_accumulate(BIRSIM_OP_ADD, pair->dst, src, kFloat32, kCount);
    __atomic_fetch_add(&pair->rounds[me], 1, __ATOMIC_RELAXED);
  }
  return 0;
}

int main(void) {
  for (int p = 0; p < kPairs; ++p) {
    struct Pair pair = {dst[p], {0, 0}};
    struct Side sides[2] = {{&pair, 0}, {&pair, 1}};
    pthread_t a, b;
    pthread_create(&a, 0, accumulate, &sides[0]);
    pthread_create(&b, 0, accumulate, &sides[1]);
    pthread_join(a, 0);
    pthread_join(b, 0);
  }
  return 0;
}
