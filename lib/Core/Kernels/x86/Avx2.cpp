//===- Avx2.cpp - the AVX2 path's kernel table ----------------------------===//
//
// The kernel table of Avx2.h's vocabulary, compiled for its features, and
// the probe that offers it only where the CPU has them (Select.cpp).
//
//===----------------------------------------------------------------------===//
#include "X86.h"

#if defined(__x86_64__)
BIRSIM_TARGET_REGION_BEGIN(BIRSIM_AVX2_FEATURES)
#include "Avx2.h"

namespace birsim::core {
namespace {
constexpr PathKernels kAvx2Kernels = kernelTableOf<Avx2>();

} // namespace
} // namespace birsim::core
BIRSIM_TARGET_REGION_END

namespace birsim::core {

const PathKernels *avx2Kernels() {
  // __builtin_cpu_supports also checks that the OS saves the registers.
  bool cpuHasIt = __builtin_cpu_supports("avx2") &&
                  __builtin_cpu_supports("f16c") &&
                  __builtin_cpu_supports("fma") &&
                  __builtin_cpu_supports("popcnt");
  return cpuHasIt ? &kAvx2Kernels : nullptr;
}

} // namespace birsim::core

#endif // __x86_64__
