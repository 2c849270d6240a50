//===- Paths.h - the vector paths the unit tests compare --------*- C++ -*-===//
#ifndef BIRSIM_TEST_PATHS_H
#define BIRSIM_TEST_PATHS_H

#include "Kernels/Kernels.h" // lib/Core, private
#include "birsim/Core/Threads.h"

#include "gtest/gtest.h"

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace birsim::test {

/// The paths this CPU has, portable first.
inline std::vector<core::Isa> everyPath() {
  std::vector<core::Isa> paths;
  for (int isa = 0; isa < int(core::Isa::kCount); ++isa)
    if (core::availableIsas().has(core::Isa(isa)))
      paths.push_back(core::Isa(isa));
  return paths;
}

/// Restores the path and thread count a test changed.
struct PathGuard {
  core::Isa saved = core::activeIsa();
  int threads = core::setNumThreads(0);
  ~PathGuard() {
    core::selectIsa(saved);
    core::setNumThreads(threads);
  }
};

/// The path every other is compared with: the portable one, or
/// BIRSIM_REFERENCE_ISA's (the emulated run compares avx512 with avx2 there,
/// since the emulator's VCVTPS2PH does not round ties to even).
inline core::Isa referencePath() {
  const char *name = std::getenv("BIRSIM_REFERENCE_ISA");
  for (core::Isa isa : everyPath())
    if (name && !std::strcmp(name, core::isaName(isa)))
      return isa;
  return core::Isa::portable;
}

/// `run()` on every path above the reference path must equal its result on
/// the reference path (the portable one unless BIRSIM_REFERENCE_ISA says).
template <typename Run>
void expectSameOnEveryPath(Run run, const std::string &what) {
  PathGuard guard;
  core::Isa referenceIsa = referencePath();
  core::selectIsa(referenceIsa);
  auto reference = run();
  for (core::Isa isa : everyPath()) {
    if (isa <= referenceIsa)
      continue;
    core::selectIsa(isa);
    auto got = run();
    ASSERT_EQ(got.size(), reference.size()) << what;
    if (got == reference) // one memcmp; the loop below finds the element
      continue;
    for (size_t i = 0; i < got.size(); ++i)
      if (got[i] != reference[i]) {
        ADD_FAILURE() << what << " on " << core::isaName(isa) << ": element "
                      << i << " is " << uint64_t(got[i]) << ", "
                      << core::isaName(referenceIsa) << " gives "
                      << uint64_t(reference[i]);
        return;
      }
  }
}

} // namespace birsim::test

#endif
