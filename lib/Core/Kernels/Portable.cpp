//===- Portable.cpp - the portable path's kernel table --------------------===//
#include "Portable.h"

namespace birsim::core {

/// Every entry of the portable path; it has no fp32 screen of the
/// assigner's PCC (screensMixed), and counts a searched pack's events.
static constexpr PathKernels makePortableKernels() {
  PathKernels table{};
  table.countsSearch = true;
  table.screensMixed = false;
  table.reduceF32 = portable::reduceF32;
  table.reduceNarrow = portable::reduceNarrow;
  table.reduceInteger = portable::reduceInteger;
  table.narrowFromF32 = portable::narrowFromF32;
  table.widenToF32 = portable::widenToF32;
  table.bfpPack = portable::bfpPack;
  table.bfpPackMixed = portable::bfpPackMixed;
  table.bfpUnpackMixed = portable::bfpUnpackMixed;
  table.bfpUnpack = portable::bfpUnpack;
  table.bfpDeviceDiff = portable::bfpDeviceDiff;
  table.mxPack = portable::mxPack;
  table.mxUnpack = portable::mxUnpack;
  table.bfpGather = portable::bfpGather;
  table.bfpMixedRoundTrips = portable::bfpMixedRoundTrips;
  table.mixedPass = portable::mixedPass;
  table.mixedScreen = nullptr;
  table.mixedMaxAbsDifference = portable::mixedMaxAbsDifference;
  table.fp8AddCounted = portable::fp8AddCounted;
  return table;
}
static constexpr PathKernels kPortableKernels = makePortableKernels();

const PathKernels &portableKernels() { return kPortableKernels; }

} // namespace birsim::core
