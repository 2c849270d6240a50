//===- Select.cpp - choosing the vector path ------------------------------===//
#include "Kernels.h"
#include "birsim/Core/Threads.h"

#include <atomic>
#include <cstdlib>
#include <cstring>

namespace birsim::core {

/// BIRSIM_ISA's names, by Isa.
static constexpr const char *kIsaNames[] = {
#define BIRSIM_ISA(Enumerator) #Enumerator,
#include "Isas.def"
};

const char *isaName(Isa isa) {
  return int(isa) >= 0 && isa < Isa::kCount ? kIsaNames[int(isa)] : "unknown";
}

namespace {
/// A vector path this platform builds: its kernels where the CPU has it.
struct VectorPath {
  Isa isa;
  const PathKernels *(*kernels)();
};
} // namespace

/// This platform's vector paths, most preferred first.
static constexpr VectorPath kPreference[] = {
#if defined(__x86_64__)
    {Isa::avx512, avx512Kernels},
    {Isa::avx2, avx2Kernels},
#endif
    {Isa::portable, nullptr}, // the end of the list; never a vector path
};

/// The CPU's paths, probed once: kernelsOf() runs on every bulk call.
static IsaSet probeIsas() {
  IsaSet set;
  for (const VectorPath &path : kPreference)
    if (path.kernels && path.kernels())
      set.add(path.isa);
  return set;
}

IsaSet availableIsas() {
  static const IsaSet set = probeIsas();
  return set;
}

Isa resolveIsa(Isa requested) {
  IsaSet available = availableIsas();
  if (requested == Isa::portable)
    return Isa::portable;
  bool seen = false, listed = false;
  for (const VectorPath &path : kPreference)
    listed |= path.isa == requested;
  for (const VectorPath &path : kPreference) {
    seen |= path.isa == requested || !listed;
    if (seen && path.isa != Isa::portable && available.has(path.isa))
      return path.isa;
  }
  return Isa::portable;
}

Isa bestIsa() { return resolveIsa(kPreference[0].isa); }

static Isa fromEnvironment() {
  const char *name = std::getenv("BIRSIM_ISA");
  if (!name || !*name)
    return bestIsa();
  for (int isa = 0; isa < int(Isa::kCount); ++isa)
    if (!std::strcmp(name, kIsaNames[isa]))
      return resolveIsa(Isa(isa));
  return bestIsa(); // an unknown name
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
  Isa chosen = resolveIsa(requested);
  gIsa.store(int(chosen), std::memory_order_relaxed);
  return chosen;
}

const PathKernels *kernelsOf(Isa isa) {
  if (isa == Isa::portable)
    return &portableKernels();
  if (!availableIsas().has(isa))
    return nullptr;
  for (const VectorPath &path : kPreference)
    if (path.isa == isa)
      return path.kernels();
  return nullptr;
}

const PathKernels &activeKernels() { return *kernelsOf(activeIsa()); }

const char *activeIsaName() { return isaName(activeIsa()); }

} // namespace birsim::core
