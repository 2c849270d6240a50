//===- Threads.h - how the bulk calls run ----------------------*- C++ -*-===//
//
// Large bulk calls split their elements over threads and run on the vector
// path the CPU allows; results never depend on either.
//
//===----------------------------------------------------------------------===//
#ifndef BIRSIM_CORE_THREADS_H
#define BIRSIM_CORE_THREADS_H

namespace birsim::core {

/// Threads for large calls: BIRSIM_NUM_THREADS, else hardware concurrency;
/// `setNumThreads(0)` restores that default. Returns the previous setting.
int setNumThreads(int threads);

/// The vector path in use: "portable", "avx2" or "avx512" (chosen once from
/// the CPU and BIRSIM_ISA).
const char *activeIsaName();

/// Keeps every bulk call made by this thread on this thread while it lives
/// (the folders: MLIR already folds functions in parallel).
class SingleThreadScope {
public:
  SingleThreadScope();
  ~SingleThreadScope();
  SingleThreadScope(const SingleThreadScope &) = delete;
  SingleThreadScope &operator=(const SingleThreadScope &) = delete;

private:
  bool saved;
};

} // namespace birsim::core

#endif // BIRSIM_CORE_THREADS_H
