//===- Avx512.cpp - the AVX-512 path's kernel table -----------------------===//
//
// The kernel table of Avx512.h's vocabulary, compiled for its features, and
// the probe that offers it only where the CPU has them (Select.cpp).
//
//===----------------------------------------------------------------------===//
#include "X86.h"

#if defined(__x86_64__)
BIRSIM_TARGET_REGION_BEGIN(BIRSIM_AVX512_FEATURES)
#include "Avx512.h"

namespace birsim::core {
namespace {
constexpr PathKernels kAvx512Kernels = kernelTableOf<Avx512>();

} // namespace
} // namespace birsim::core
BIRSIM_TARGET_REGION_END

namespace birsim::core {

const PathKernels *avx512Kernels() {
  // __builtin_cpu_supports also checks that the OS saves the registers.
  bool cpuHasIt =
      avx2Kernels() && __builtin_cpu_supports("avx512f") &&
      __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vl");
  return cpuHasIt ? &kAvx512Kernels : nullptr;
}

} // namespace birsim::core

#endif // __x86_64__
