//===- VocabularyAvx512Test.cpp - the AVX-512 vocabulary, lane by lane ----===//
//
// VocabularyTest.Avx512: every lane operation of x86/Avx512.h (32- and 16-bit
// lanes) and every generic operation of its path vocabulary, compiled for
// the path as the kernels are, against LaneReference.h's portable lanes
// (LaneChecks.h). Skipped where the CPU lacks AVX-512.
//
//===----------------------------------------------------------------------===//
#include "LaneReference.h"
#include "Kernels/Kernels.h" // lib/Core, private

#include "gtest/gtest.h"

#include <algorithm>
#include <array>
#include <type_traits>
#include <utility>

#if defined(__x86_64__)
#include "Kernels/x86/X86.h"

BIRSIM_TARGET_REGION_BEGIN(BIRSIM_AVX512_FEATURES)
#include "Kernels/x86/Avx512.h"

namespace birsim::test::avx512 {
#include "LaneChecks.h"

void checkEveryOp(lanes::Failures &failures) {
  checkLaneOps<core::Avx512Lanes<32>, 32, true, true, true>("avx512", failures);
  checkLaneOps<core::Avx512Lanes<16>, 16, true, false, false>("avx512", failures);
  checkVocabularyOps<core::Avx512>("avx512", failures);
}
} // namespace birsim::test::avx512
BIRSIM_TARGET_REGION_END

TEST(VocabularyTest, Avx512) {
  using namespace birsim;
  if (!core::availableIsas().has(core::Isa::avx512))
    GTEST_SKIP() << "this CPU has no AVX-512";
  test::lanes::Failures failures;
  test::avx512::checkEveryOp(failures);
  EXPECT_TRUE(failures.lines.empty()) << failures.text();
}
#endif // __x86_64__
