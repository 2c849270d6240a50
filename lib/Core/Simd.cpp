//===- Simd.cpp - vector path selection and threads -----------------------===//
#include "birsim/Core/Simd.h"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

namespace birsim::core {

const char *isaName(Isa isa) {
  switch (isa) {
  case Isa::portable:
    return "portable";
  case Isa::avx2:
    return "avx2";
  case Isa::avx512:
    return "avx512";
  }
  return "unknown";
}

Isa bestIsa() {
#if defined(__x86_64__)
  // __builtin_cpu_supports also checks that the OS saves the registers.
  if (!__builtin_cpu_supports("avx2") || !__builtin_cpu_supports("f16c") ||
      !__builtin_cpu_supports("popcnt"))
    return Isa::portable;
  if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
      __builtin_cpu_supports("avx512vl"))
    return Isa::avx512;
  return Isa::avx2;
#endif
  return Isa::portable;
}

static Isa fromEnvironment() {
  Isa best = bestIsa();
  const char *name = std::getenv("BIRSIM_ISA");
  if (!name || !*name)
    return best;
  Isa requested = best;
  if (!std::strcmp(name, "portable"))
    requested = Isa::portable;
  else if (!std::strcmp(name, "avx2"))
    requested = Isa::avx2;
  else if (!std::strcmp(name, "avx512"))
    requested = Isa::avx512;
  return std::min(requested, best);
}

static std::atomic<int> gIsa{-1};

Isa activeIsa() {
  int isa = gIsa.load(std::memory_order_relaxed);
  if (isa < 0) {
    isa = int(fromEnvironment());
    gIsa.store(isa, std::memory_order_relaxed);
  }
  return Isa(isa);
}

Isa selectIsa(Isa requested) {
  Isa chosen = std::min(requested, bestIsa());
  gIsa.store(int(chosen), std::memory_order_relaxed);
  return chosen;
}

const VectorKernels *activeKernels() {
#if defined(__x86_64__)
  switch (activeIsa()) {
  case Isa::avx512:
    return &avx512Kernels();
  case Isa::avx2:
    return &avx2Kernels();
  case Isa::portable:
    break;
  }
#endif
  return nullptr;
}

//===-- Threads -----------------------------------------------------------===//

/// BIRSIM_NUM_THREADS, else the hardware's concurrency; read once.
static int defaultThreads() {
  static const int threads = [] {
    if (const char *text = std::getenv("BIRSIM_NUM_THREADS"))
      if (int n = std::atoi(text); n > 0)
        return n;
    return int(std::max(1u, std::thread::hardware_concurrency()));
  }();
  return threads;
}

static std::atomic<int> gThreads{0}; // 0: the default

int setNumThreads(int threads) {
  return gThreads.exchange(std::max(threads, 0), std::memory_order_relaxed);
}

int numThreads() {
  int n = gThreads.load(std::memory_order_relaxed);
  return n > 0 ? n : defaultThreads();
}

static thread_local bool tSingleThread = false;

SingleThreadScope::SingleThreadScope() : saved(tSingleThread) {
  tSingleThread = true;
}
SingleThreadScope::~SingleThreadScope() { tSingleThread = saved; }

void parallelFor(size_t count, size_t minPerThread,
                 void (*fn)(void *, size_t, size_t), void *context) {
  size_t most = count / std::max<size_t>(minPerThread, 1);
  size_t threads = most < 2 || tSingleThread
                       ? 1
                       : std::min<size_t>(size_t(numThreads()), most);
  if (threads <= 1) {
    fn(context, 0, count);
    return;
  }
  // Chunk boundaries on multiples of 64 items keep every chunk's vector
  // loop whole and its cache lines its own.
  size_t chunk = (count / threads + 63) & ~size_t(63);
  std::vector<std::thread> workers;
  workers.reserve(threads - 1);
  size_t begin = chunk;
  for (size_t t = 1; t < threads && begin < count; ++t, begin += chunk)
    workers.emplace_back(fn, context, begin, std::min(count, begin + chunk));
  fn(context, 0, std::min(count, chunk));
  for (std::thread &worker : workers)
    worker.join();
}

} // namespace birsim::core
