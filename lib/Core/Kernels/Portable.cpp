//===- Portable.cpp - the portable path's kernel table --------------------===//
#include "Portable.h"

namespace birsim::core {

/// Every entry of the portable path; it has no fp32 screen of the
/// assigner's PCC (screensMixed), and counts a searched pack's events.
static constexpr PathKernels makePortableKernels() {
  PathKernels table{};
  table.countsSearch = true;
  table.screensMixed = false;
#define BIRSIM_PATH_KERNEL(Name) table.Name = portable::Name;
#define BIRSIM_PATH_KERNEL_IF(Name, Capability) // it lacks them
#include "PathKernels.def"
  return table;
}
static constexpr PathKernels kPortableKernels = makePortableKernels();

const PathKernels &portableKernels() { return kPortableKernels; }

} // namespace birsim::core
