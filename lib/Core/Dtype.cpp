//===- Dtype.cpp - bir::Dtype descriptor table ----------------------------===//
#include "birsim/Core/Dtype.h"

namespace birsim::core {

namespace {
#define BIRSIM_FLOAT(E, M, Bias, NonFiniteKind, NaN, NaNKeepsSign)             \
  FloatFormat { E, M, Bias, NonFinite::NonFiniteKind, NaN, NaNKeepsSign }
#define BIRSIM_NO_FLOAT                                                        \
  FloatFormat {}

/// Each row's float format (docs/Semantics.md sections 1 and 4).
struct Formats {
#define BIRSIM_DTYPE(E, N, Name, B, K, Format, ...) FloatFormat E = Format;
#include "birsim/Core/Dtypes.def"
};
constexpr Formats kFormats;

constexpr const FloatFormat *formatOrNull(const FloatFormat &format) {
  return format.exponentBits ? &format : nullptr;
}

constexpr DtypeInfo kDtypes[] = {
#define BIRSIM_DTYPE(E, N, Name, Bytes, Kind, Format, Red, ...)                \
  {Dtype::E,        Name,           Bytes,                                     \
   DtypeKind::Kind, formatOrNull(kFormats.E), Reduction::Red},
#include "birsim/Core/Dtypes.def"
};

constexpr bool rowsInNumberOrder() {
  for (int d = 0; d < kNumDtypes; ++d)
    if (int(kDtypes[d].dtype) != d)
      return false;
  return true;
}
static_assert(rowsInNumberOrder(), "Dtypes.def rows must be numbered 0..N-1");
} // namespace

const FloatFormat &kFloat32Format = kFormats.float32;

const DtypeInfo *lookupDtype(int dtype) {
  if (dtype < 0 || dtype >= kNumDtypes)
    return nullptr;
  return &kDtypes[dtype];
}

} // namespace birsim::core
