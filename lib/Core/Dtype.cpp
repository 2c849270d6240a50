//===- Dtype.cpp - bir::Dtype descriptor table ----------------------------===//
#include "birsim/Core/Dtype.h"
#include "birsim/Core/Enums.h"

namespace birsim::core {

namespace {
#define BIRSIM_FLOAT(E, M, Bias, NonFinite, NanEncoding, NaN, NaNKeepsSign)     \
  FloatFormat {                                                                \
    E, M, Bias, FloatNonFinite::NonFinite, FloatNanEncoding::NanEncoding, NaN, \
        NaNKeepsSign                                                           \
  }
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
#define BIRSIM_DTYPE(E, N, Name, Bytes, Kind, Format, Red, Spelling, ...)      \
  {Dtype::E,        Name,           Bytes,                                     \
   DtypeKind::Kind, formatOrNull(kFormats.E), Reduction::Red, Spelling},
#include "birsim/Core/Dtypes.def"
};

// Each row's float axes combine as APFloat's, and its narrowing NaN is a
// NaN of the format (or, in a format without NaN, a finite code).
#define BIRSIM_DTYPE(E, ...)                                                   \
  static_assert(!kFormats.E.exponentBits ||                                    \
                    (kFormats.E.axesAgree() &&                                 \
                     kFormats.E.isNaN(kFormats.E.nanResult) ==                 \
                         kFormats.E.hasNaN()),                                 \
                "Dtypes.def " #E ": float axes or narrowing NaN");
#include "birsim/Core/Dtypes.def"

static_assert(numberedInRowOrder({
#define BIRSIM_DTYPE(E, Number, ...) Number,
#include "birsim/Core/Dtypes.def"
              }),
              "Dtypes.def rows must be numbered 0..N-1");
} // namespace

const FloatFormat &kFloat32Format = kFormats.float32;

const DtypeInfo *lookupDtype(int dtype) {
  if (dtype < 0 || dtype >= kNumDtypes)
    return nullptr;
  return &kDtypes[dtype];
}

static constexpr const char *kDtypeKindNames[] = {
#define BIRSIM_DTYPE_KIND(Enumerator, Name) Name,
    BIRSIM_DTYPE_KINDS
#undef BIRSIM_DTYPE_KIND
};
static constexpr const char *kReductionNames[] = {
#define BIRSIM_REDUCTION(Enumerator, Name) Name,
    BIRSIM_REDUCTIONS
#undef BIRSIM_REDUCTION
};

const char *dtypeKindName(DtypeKind kind) {
  return kDtypeKindNames[int(kind)];
}
const char *reductionName(Reduction reduction) {
  return kReductionNames[int(reduction)];
}

} // namespace birsim::core
