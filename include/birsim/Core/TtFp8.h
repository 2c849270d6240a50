//===- TtFp8.h - tt-metal's FP8 E4M3 conversions (§6) -----------*- C++ -*-===//
//
// The three FP8 E4M3 conversions of Tenstorrent's stack as named policies
// of one cast (TtFp8Policies.def; docs/Semantics.md section 6): each
// encodes fp32 values to E4M3 codes and decodes codes to fp32 its own way.
//
//===----------------------------------------------------------------------===//
#ifndef BIRSIM_CORE_TTFP8_H
#define BIRSIM_CORE_TTFP8_H

#include "birsim/Core/Fidelity.h"
#include "birsim/Core/Status.h"

#include <cstddef>
#include <cstdint>

namespace birsim::core {

enum class TtFp8Policy : int {
#define BIRSIM_TT_FP8_POLICY(Enumerator, Number, CMacro) Enumerator = Number,
#include "birsim/Core/TtFp8Policies.def"
};
struct TtFp8PolicyInfo {
  TtFp8Policy policy;
  const char *name;
};
inline constexpr TtFp8PolicyInfo kTtFp8PolicyTable[] = {
#define BIRSIM_TT_FP8_POLICY(Enumerator, Number, CMacro)                       \
  {TtFp8Policy::Enumerator, #Enumerator},
#include "birsim/Core/TtFp8Policies.def"
};
constexpr int kNumTtFp8Policies = int(std::size(kTtFp8PolicyTable));
/// The row of `policy`, or null.
const TtFp8PolicyInfo *lookupTtFp8Policy(int policy);

/// fp32 bits to an E4M3 code, and a code to fp32 bits, under `policy`.
uint8_t ttFp8Encode(TtFp8Policy policy, uint32_t f32);
uint32_t ttFp8Decode(TtFp8Policy policy, uint8_t code);

/// Which policies give `f32` different values (each encoded and decoded by
/// its own policy; NaN against NaN equal), as tt_fp8 events (Fidelity.def):
/// bit 0 ttmetal_host/ocp_e4m3fn, bit 1 ttmetal_host/blackhole_packer,
/// bit 2 ocp_e4m3fn/blackhole_packer.
unsigned ttFp8Disagreements(uint32_t f32);

/// `count` float32 values at `src` to codes at `dst` (threaded; nothing
/// written on error); a non-null `counts` receives the tt_fp8 family's
/// counts (docs/Fidelity.md).
Status ttFp8EncodeBulk(int policy, const void *src, size_t count, void *dst,
                       FidelityCounts *counts = nullptr);
/// `count` codes at `src` to float32 values at `dst`.
Status ttFp8DecodeBulk(int policy, const void *src, size_t count, void *dst);
/// The tt_fp8 counts of an encode of `count` float32 values, with the
/// first index of each event.
Status tallyTtFp8(int policy, const void *src, size_t count,
                  FidelityTally &tally);

} // namespace birsim::core

#endif // BIRSIM_CORE_TTFP8_H
