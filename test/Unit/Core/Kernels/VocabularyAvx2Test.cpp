//===- VocabularyAvx2Test.cpp - the AVX2 vocabulary, lane by lane ----===//
//
// VocabularyTest.Avx2: every lane operation of x86/Avx2.h (32- and 16-bit
// lanes) and every generic operation of its path vocabulary, compiled for
// the path as the kernels are, against LaneReference.h's portable lanes
// (LaneChecks.h). Skipped where the CPU lacks AVX2.
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

BIRSIM_TARGET_REGION_BEGIN(BIRSIM_AVX2_FEATURES)
#include "Kernels/x86/Avx2.h"

namespace birsim::test::avx2 {
#include "LaneChecks.h"

void checkEveryOp(lanes::Failures &failures) {
  checkLaneOps<core::Avx2Lanes<32>, 32, true, true, true>("avx2", failures);
  checkLaneOps<core::Avx2Lanes<16>, 16, false, false, true>("avx2", failures);
  checkVocabularyOps<core::Avx2>("avx2", failures);
}
} // namespace birsim::test::avx2
BIRSIM_TARGET_REGION_END

TEST(VocabularyTest, Avx2) {
  using namespace birsim;
  if (!core::availableIsas().has(core::Isa::avx2))
    GTEST_SKIP() << "this CPU has no AVX2";
  test::lanes::Failures failures;
  test::avx2::checkEveryOp(failures);
  EXPECT_TRUE(failures.lines.empty()) << failures.text();
}
#endif // __x86_64__
