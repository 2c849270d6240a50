//===- Select.cpp - choosing the vector path ------------------------------===//
#include "Kernels.h"

#include <atomic>
#include <cstdlib>
#include <cstring>

namespace birsim::core {

/// BIRSIM_ISA's names, by Isa.
static constexpr const char *kIsaNames[] = {"portable", "avx2", "avx512"};
static_assert(std::size(kIsaNames) == size_t(Isa::kCount), "a name per Isa");

const char *isaName(Isa isa) {
  return int(isa) >= 0 && isa < Isa::kCount ? kIsaNames[int(isa)] : "unknown";
}

#if defined(__x86_64__)
/// This platform's vector paths, most preferred first.
static constexpr Isa kPreference[] = {Isa::avx512, Isa::avx2};
#else
static constexpr Isa kPreference[] = {Isa::portable}; // no vector path
#endif

/// The CPU's paths, probed once: kernelsOf() runs on every bulk call.
static IsaSet probeIsas() {
  IsaSet set;
#if defined(__x86_64__)
  // __builtin_cpu_supports also checks that the OS saves the registers.
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("f16c") &&
      __builtin_cpu_supports("popcnt")) {
    set.add(Isa::avx2);
    if (__builtin_cpu_supports("avx512f") &&
        __builtin_cpu_supports("avx512bw") &&
        __builtin_cpu_supports("avx512vl"))
      set.add(Isa::avx512);
  }
#endif
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
  for (Isa isa : kPreference)
    listed |= isa == requested;
  for (Isa isa : kPreference) {
    seen |= isa == requested || !listed;
    if (seen && isa != Isa::portable && available.has(isa))
      return isa;
  }
  return Isa::portable;
}

Isa bestIsa() { return resolveIsa(kPreference[0]); }

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

const VectorKernels *kernelsOf(Isa isa) {
  if (!availableIsas().has(isa))
    return nullptr;
  switch (isa) {
#if defined(__x86_64__)
  case Isa::avx512:
    return &avx512Kernels();
  case Isa::avx2:
    return &avx2Kernels();
#endif
  default:
    return nullptr;
  }
}

const VectorKernels *activeKernels() { return kernelsOf(activeIsa()); }

} // namespace birsim::core
