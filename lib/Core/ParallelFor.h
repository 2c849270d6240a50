//===- ParallelFor.h - splitting bulk calls over threads --------*- C++ -*-===//
//
// Private to lib/Core: the worker pool behind birsim/Core/Threads.h.
//
//===----------------------------------------------------------------------===//
#ifndef BIRSIM_LIB_CORE_PARALLELFOR_H
#define BIRSIM_LIB_CORE_PARALLELFOR_H

#include <cstddef>

namespace birsim::core {

/// The threads a large call uses now (setNumThreads, else the default).
int numThreads();

/// Runs fn(begin, end) over [0, count) in contiguous chunks, on several
/// threads only when each gets at least `minPerThread` items: the calling
/// thread and workers kept from earlier calls (a call that finds them busy
/// starts its own). Chunks are independent, so results do not depend on the
/// thread count.
void parallelFor(size_t count, size_t minPerThread,
                 void (*fn)(void *context, size_t begin, size_t end),
                 void *context);

template <typename Fn>
void parallelFor(size_t count, size_t minPerThread, Fn &&fn) {
  parallelFor(
      count, minPerThread,
      [](void *context, size_t begin, size_t end) {
        (*static_cast<Fn *>(context))(begin, end);
      },
      &fn);
}

/// Elements per thread below which a bulk call stays on one thread.
constexpr size_t kMinElementsPerThread = size_t(1) << 18;
/// BFP tiles per thread below which packing stays on one thread.
constexpr size_t kMinTilesPerThread = 256;

} // namespace birsim::core

#endif // BIRSIM_LIB_CORE_PARALLELFOR_H
