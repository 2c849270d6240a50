//===- Paths.h - the vector paths the unit tests compare --------*- C++ -*-===//
#ifndef BIRSIM_TEST_PATHS_H
#define BIRSIM_TEST_PATHS_H

#include "Kernels/Kernels.h" // lib/Core, private
#include "birsim/Core/Threads.h"

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

} // namespace birsim::test

#endif
