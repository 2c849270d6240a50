//===- Dtype.h - bir::Dtype descriptors -------------------------*- C++ -*-===//
//
// One descriptor per bir::Dtype (docs/Semantics.md section 1). Everything that
// depends on the dtype (names, strides, reducibility, float format) reads this
// table; no other file switches on dtype numbers.
//
//===----------------------------------------------------------------------===//
#ifndef BIRSIM_CORE_DTYPE_H
#define BIRSIM_CORE_DTYPE_H

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace birsim::core {

enum class Dtype : int {
#define BIRSIM_DTYPE(Enumerator, Number, ...) Enumerator = Number,
#include "birsim/Core/Dtypes.def"
};

constexpr int kNumDtypes = 0
#define BIRSIM_DTYPE(...) +1
#include "birsim/Core/Dtypes.def"
    ;

/// How cast_copy_or_accumulate reduces a dtype with add/min/max (§3):
/// BIRSIM_REDUCTION(Enumerator, Name), Name as birsim_dtype_info gives it.
#define BIRSIM_REDUCTIONS                                                      \
  /* "cast_accumulate: unsupported dtype" */                                   \
  BIRSIM_REDUCTION(None, "none")                                               \
  /* widen, fp32 core, narrow with FP8 config 0 (tabulated when portable) */   \
  BIRSIM_REDUCTION(Fp8, "fp8")                                                 \
  /* bf16/fp16: widen, fp32 core, narrow */                                    \
  BIRSIM_REDUCTION(Narrow16, "narrow16")                                       \
  /* wrapping add, signed min/max */                                           \
  BIRSIM_REDUCTION(Int32, "int32")                                             \
  BIRSIM_REDUCTION(Int64, "int64")                                             \
  /* the fp32 core on the raw bits */                                          \
  BIRSIM_REDUCTION(Float32, "float32")
enum class Reduction : uint8_t {
#define BIRSIM_REDUCTION(Enumerator, Name) Enumerator,
  BIRSIM_REDUCTIONS
#undef BIRSIM_REDUCTION
};
const char *reductionName(Reduction reduction);

/// How the cast engine and the reduce kernel interpret a dtype's bits:
/// BIRSIM_DTYPE_KIND(Enumerator, Name), Name as birsim_dtype_info gives it.
#define BIRSIM_DTYPE_KINDS                                                     \
  /* two's complement without sign (e8m0fnu included, §4) */                   \
  BIRSIM_DTYPE_KIND(UnsignedInt, "unsigned_int")                               \
  BIRSIM_DTYPE_KIND(SignedInt, "signed_int")                                   \
  /* IEEE-like binary float described by a FloatFormat */                      \
  BIRSIM_DTYPE_KIND(Float, "float")                                            \
  /* fp32 itself (the hub) */                                                  \
  BIRSIM_DTYPE_KIND(Float32, "float32")                                        \
  /* fp32 storage, TF32-like rounding on write (§4) */                         \
  BIRSIM_DTYPE_KIND(Float32r, "float32r")                                      \
  /* _x4 dtypes: copy only, outside the cast engine */                         \
  BIRSIM_DTYPE_KIND(Packed, "packed")
enum class DtypeKind : uint8_t {
#define BIRSIM_DTYPE_KIND(Enumerator, Name) Enumerator,
  BIRSIM_DTYPE_KINDS
#undef BIRSIM_DTYPE_KIND
};
const char *dtypeKindName(DtypeKind kind);

/// What a float format has besides finite values (docs/Semantics.md
/// section 1; APFloat's fltNonfiniteBehavior).
enum class FloatNonFinite : uint8_t {
  IEEE,      ///< Inf and NaN
  NanOnly,   ///< NaN, no Inf (e4m3fn, e8m0, the FNUZ formats)
  FiniteOnly ///< neither (the MX element formats e2m1, e3m2, e2m3)
};
/// How a float format encodes NaN (APFloat's fltNanEncoding).
enum class FloatNanEncoding : uint8_t {
  IEEE,        ///< all-ones exponent, non-zero mantissa (Inf: mantissa 0)
  AllOnes,     ///< the all-ones magnitude code only (e4m3fn, e8m0)
  NegativeZero ///< the sign bit alone, so no -0 (the FNUZ formats)
};

/// Parameters of a binary float format of at most 32 bits, with everything
/// its two non-finite axes imply derived here, in one place.
struct FloatFormat {
  uint8_t exponentBits;
  uint8_t mantissaBits;
  int16_t bias;
  FloatNonFinite nonFinite;
  FloatNanEncoding nanEncoding;
  uint32_t nanResult; ///< canonical NaN produced by narrowing (§4 table)
  bool nanKeepsSign;  ///< float16: NaN result carries the input sign (§4)

  constexpr unsigned totalBits() const { return 1 + exponentBits + mantissaBits; }
  constexpr uint32_t signMask() const {
    return 1u << (exponentBits + mantissaBits);
  }
  constexpr uint32_t magnitudeMask() const { return signMask() - 1; }
  constexpr uint32_t exponentAllOnes() const {
    return (1u << exponentBits) - 1;
  }
  constexpr bool hasInf() const { return nonFinite == FloatNonFinite::IEEE; }
  constexpr bool hasNaN() const {
    return nonFinite != FloatNonFinite::FiniteOnly;
  }
  /// Whether -0 is a value (in FNUZ formats its code is the NaN).
  constexpr bool hasNegativeZero() const {
    return nanEncoding != FloatNanEncoding::NegativeZero;
  }
  /// Magnitude encoding of infinity (hasInf formats only).
  constexpr uint32_t infCode() const {
    return exponentAllOnes() << mantissaBits;
  }
  /// Largest finite magnitude encoding.
  constexpr uint32_t maxFiniteCode() const {
    if (hasInf())
      return infCode() - 1;
    if (hasNaN() && nanEncoding == FloatNanEncoding::AllOnes)
      return magnitudeMask() - 1;
    return magnitudeMask();
  }
  constexpr bool isNaN(uint32_t code) const {
    if (!hasNaN())
      return false;
    switch (nanEncoding) {
    case FloatNanEncoding::IEEE:
      return (code & magnitudeMask()) > infCode();
    case FloatNanEncoding::AllOnes:
      return (code & magnitudeMask()) == magnitudeMask();
    case FloatNanEncoding::NegativeZero:
      return code == signMask();
    }
    return false;
  }
  constexpr bool isInf(uint32_t code) const {
    return hasInf() && (code & magnitudeMask()) == infCode();
  }
  /// The axes combine as APFloat's do: Inf comes with IEEE NaNs only, and a
  /// NaN-only format encodes its NaN in a code of its own.
  constexpr bool axesAgree() const {
    return (nonFinite == FloatNonFinite::IEEE) ==
               (nanEncoding == FloatNanEncoding::IEEE) ||
           nonFinite == FloatNonFinite::FiniteOnly;
  }
};

struct DtypeInfo {
  Dtype dtype;
  const char *name; ///< bir::Dtype2string spelling
  uint8_t bytes;    ///< COPY_SIZE_LUT stride
  DtypeKind kind;
  const FloatFormat *format; ///< Float, Float32, Float32r; null otherwise
  Reduction reduction;
  const char *mlirSpelling; ///< the MLIR element type as printed

  /// add/min/max reduce it (§3).
  constexpr bool reduces() const { return reduction != Reduction::None; }
  /// The FP8 config applies when narrowing to it (§4).
  constexpr bool isFp8() const { return format && format->totalBits() == 8; }
};

extern const FloatFormat &kFloat32Format;

/// Descriptor of `dtype`, or null when it is not a bir::Dtype number.
const DtypeInfo *lookupDtype(int dtype);
inline const DtypeInfo &dtypeInfo(Dtype d) { return *lookupDtype(int(d)); }

/// The value of a SignedInt dtype's raw bits (two's complement, sign
/// extended from its width).
inline int64_t signedValue(const DtypeInfo &d, uint64_t bits) {
  unsigned shift = 64 - 8u * d.bytes;
  return int64_t(bits << shift) >> shift;
}

/// Raw little-endian element access (the host is little-endian).
inline uint64_t loadBits(const void *p, unsigned bytes) {
  // Fixed-size copies compile to single loads.
  switch (bytes) {
  case 1: { uint8_t v; std::memcpy(&v, p, 1); return v; }
  case 2: { uint16_t v; std::memcpy(&v, p, 2); return v; }
  case 4: { uint32_t v; std::memcpy(&v, p, 4); return v; }
  default: { uint64_t v = 0; std::memcpy(&v, p, bytes); return v; }
  }
}
inline void storeBits(void *p, unsigned bytes, uint64_t bits) {
  std::memcpy(p, &bits, bytes);
}

/// Copy every dtype; cast the non-packed ones (§4).
inline bool isCastable(const DtypeInfo &d) {
  return d.kind != DtypeKind::Packed;
}

} // namespace birsim::core

#endif // BIRSIM_CORE_DTYPE_H
