//===- Threads.cpp - the bulk calls' threads ------------------------------===//
#include "birsim/Core/Threads.h"
#include "ParallelFor.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdlib>
#include <mutex>
#include <thread>
#include <vector>

#include <unistd.h>

namespace birsim::core {

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

namespace {
struct Chunk {
  size_t begin, end;
};
using ChunkFn = void (*)(void *context, size_t begin, size_t end);

/// Worker threads kept for parallelFor: starting and joining threads costs
/// tens of microseconds per call, about what a second core saves on a
/// 2^20-element kernel. One call at a time uses the pool; a call that finds
/// it busy (another thread's call), or runs in a forked child (which has no
/// workers), starts threads of its own.
class WorkerPool {
public:
  /// Runs fn over chunks[1..] on workers and chunks[0] on this thread;
  /// false, having run nothing, when the pool is busy.
  bool run(ChunkFn fn, void *context, const std::vector<Chunk> &chunks) {
    std::unique_lock<std::mutex> callLock(callMutex, std::try_to_lock);
    if (!callLock.owns_lock() || getpid() != owner)
      return false;
    {
      std::lock_guard<std::mutex> lock(mutex);
      while (workers.size() + 1 < chunks.size())
        workers.emplace_back(&WorkerPool::work, this, workers.size() + 1);
      job = {fn, context, &chunks};
      pending = chunks.size() - 1;
      ++generation;
    }
    wake.notify_all();
    fn(context, chunks[0].begin, chunks[0].end);
    std::unique_lock<std::mutex> lock(mutex);
    done.wait(lock, [&] { return pending == 0; });
    // A worker this call did not need may wake only now: it must find no
    // job, not this call's chunks (gone once it returns).
    job = Job();
    return true;
  }

private:
  struct Job {
    ChunkFn fn = nullptr;
    void *context = nullptr;
    const std::vector<Chunk> *chunks = nullptr;
    size_t size() const { return chunks ? chunks->size() : 0; }
  };

  /// Worker `index` runs chunks[index] of each call that has one.
  void work(size_t index) {
    uint64_t seen = 0;
    std::unique_lock<std::mutex> lock(mutex);
    for (;;) {
      wake.wait(lock, [&] { return generation != seen; });
      seen = generation;
      if (index >= job.size())
        continue;
      Job current = job;
      lock.unlock();
      const Chunk &chunk = (*current.chunks)[index];
      current.fn(current.context, chunk.begin, chunk.end);
      lock.lock();
      if (--pending == 0)
        done.notify_one();
    }
  }

  const pid_t owner = getpid();
  std::mutex callMutex; ///< held for a whole call
  std::mutex mutex;     ///< guards the fields below
  std::condition_variable wake, done;
  std::vector<std::thread> workers; ///< never joined: the pool lives forever
  Job job;
  uint64_t generation = 0;
  size_t pending = 0;
};

WorkerPool &workerPool() {
  static WorkerPool *pool = new WorkerPool; // never destroyed (workers wait)
  return *pool;
}
} // namespace

void parallelFor(size_t count, size_t minPerThread, ChunkFn fn,
                 void *context) {
  size_t most = count / std::max<size_t>(minPerThread, 1);
  size_t threads = most < 2 || tSingleThread
                       ? 1
                       : std::min<size_t>(size_t(numThreads()), most);
  if (threads <= 1) {
    fn(context, 0, count);
    return;
  }
  // Chunk boundaries on multiples of 64 items keep every chunk's vector
  // loop whole and its cache lines its own; at most `threads` chunks.
  size_t chunk = ((count + threads - 1) / threads + 63) & ~size_t(63);
  std::vector<Chunk> chunks;
  for (size_t begin = 0; begin < count; begin += chunk)
    chunks.push_back({begin, std::min(count, begin + chunk)});
  if (workerPool().run(fn, context, chunks))
    return;
  std::vector<std::thread> workers;
  workers.reserve(chunks.size() - 1);
  for (size_t t = 1; t < chunks.size(); ++t)
    workers.emplace_back(fn, context, chunks[t].begin, chunks[t].end);
  fn(context, chunks[0].begin, chunks[0].end);
  for (std::thread &worker : workers)
    worker.join();
}

} // namespace birsim::core
