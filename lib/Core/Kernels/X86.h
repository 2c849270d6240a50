//===- X86.h - what every x86 path's kernels share --------------*- C++ -*-===//
//
// Private to lib/Core. Included by Avx2.cpp and Avx512.cpp before
// their target attributes, so these inline functions are plain x86-64 code
// (SSE only) in both, as the one-definition rule needs.
//
//===----------------------------------------------------------------------===//
#ifndef BIRSIM_LIB_CORE_KERNELS_X86_H
#define BIRSIM_LIB_CORE_KERNELS_X86_H

#include "birsim/Core/Bfp.h"
#include "birsim/Core/Fidelity.h"
#include "birsim/Core/Float.h"
#include "Dispatch.h"
#include "Kernels.h"

#include <tmmintrin.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <type_traits>

#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define BIRSIM_TSAN 1
// Exported by TSan's runtime, not declared by <sanitizer/tsan_interface.h>.
extern "C" void __tsan_read_range(void *address, unsigned long size);
extern "C" void __tsan_write_range(void *address, unsigned long size);
#endif
#endif

namespace birsim::core::kernel {

/// Entered by every kernel. Sets the default MXCSR (round to nearest even,
/// no FTZ/DAZ, exceptions masked) for the kernel's duration, whatever the
/// caller set (§2). ThreadSanitizer does not instrument vector accesses, so
/// in TSan builds the kernel's whole source and destination ranges are
/// reported to it here.
class KernelEntry {
public:
  KernelEntry(const void *src, size_t srcBytes, void *dst, size_t dstBytes)
      : saved(_mm_getcsr()) {
#ifdef BIRSIM_TSAN
    if (srcBytes)
      __tsan_read_range(const_cast<void *>(src), srcBytes);
    if (dstBytes)
      __tsan_write_range(dst, dstBytes);
#else
    (void)src, (void)srcBytes, (void)dst, (void)dstBytes;
#endif
    _mm_setcsr(0x1F80);
  }
  ~KernelEntry() { _mm_setcsr(saved); }
  KernelEntry(const KernelEntry &) = delete;
  KernelEntry &operator=(const KernelEntry &) = delete;

private:
  unsigned saved;
};

/// Prefetches the stream at `p` this far ahead: on an AMD Zen 3 core the
/// hardware prefetcher alone leaves the streaming loops 20-40% slower than
/// memcpy (measured). A prefetch past a buffer's end is a hint that never
/// faults.
constexpr size_t kPrefetchBytes = 2048;
inline void prefetchAhead(const void *p) {
  _mm_prefetch(static_cast<const char *>(p) + kPrefetchBytes, _MM_HINT_T0);
}
inline void prefetchAhead(const void *a, const void *b) {
  prefetchAhead(a);
  prefetchAhead(b);
}

/// The 16 datum bytes of the block whose datums start at `datums` (§5:
/// element 0 in the low bits; BFP8 a byte each, BFP4 two per byte, BFP2
/// four). SSE2 only, so any ISA's kernel can call it.
inline __m128i bfpBlockDatums(unsigned datumBits, const unsigned char *datums) {
  if (datumBits == 8)
    return _mm_loadu_si128((const __m128i *)datums);
  if (datumBits == 4) {
    __m128i pairs = _mm_loadl_epi64((const __m128i *)datums);
    __m128i low = _mm_and_si128(pairs, _mm_set1_epi8(0x0F));
    __m128i high = _mm_and_si128(_mm_srli_epi16(pairs, 4), _mm_set1_epi8(0x0F));
    return _mm_unpacklo_epi8(low, high);
  }
  // BFP2: each byte four times (bytes 0 0 0 0 1 1 1 1 ...), then datum i
  // is (byte >> 2 (i % 4)) & 3: a 16-bit shift keeps each byte's own bits
  // in the low two bits of that byte.
  uint32_t word;
  std::memcpy(&word, datums, 4);
  __m128i v = _mm_cvtsi32_si128(int(word));
  v = _mm_unpacklo_epi8(v, v);
  v = _mm_unpacklo_epi16(v, v);
  __m128i three = _mm_set1_epi8(3);
  __m128i position = _mm_set1_epi32(int(0xFF000000u)), result = _mm_setzero_si128();
  for (int k = 3; k >= 0; --k, position = _mm_srli_epi32(position, 8)) {
    __m128i shifted = _mm_and_si128(_mm_srl_epi16(v, _mm_cvtsi32_si128(2 * k)), three);
    result = _mm_or_si128(result, _mm_and_si128(shifted, position));
  }
  return result;
}

/// Pairs of bytes d0 + 2^bits d1 (each below 2^bits) in the low half.
__attribute__((target("ssse3"))) inline __m128i bfpPairUp(__m128i v,
                                                          int bits) {
  return _mm_packus_epi16(
      _mm_maddubs_epi16(v, _mm_set1_epi16(int16_t(1 | (1 << bits) << 8))),
      _mm_setzero_si128());
}

/// Stores a block's 16 datum bytes (each below 2^datumBits) at `datums`
/// (§5: element 0 in the low bits); bfpBlockDatums reads them back. SSSE3
/// (PMADDUBSW), which every vector path has.
__attribute__((target("ssse3"))) inline void
bfpStoreBlockDatums(unsigned datumBits, char *datums, __m128i values) {
  if (datumBits == 8) {
    _mm_storeu_si128((__m128i *)datums, values);
    return;
  }
  __m128i packed = bfpPairUp(values, int(datumBits));
  if (datumBits == 4) {
    _mm_storel_epi64((__m128i *)datums, packed);
    return;
  }
  int word = _mm_cvtsi128_si32(bfpPairUp(packed, 4)); // BFP2: pairs of pairs
  std::memcpy(datums, &word, 4);
}

/// What every x86 path's vocabulary (Loops.h) shares: the kernel entry,
/// prefetching, and a BFP block's 16 datum bytes in an SSE register.
struct X86Vocabulary {
  using Entry = KernelEntry;
  static void prefetch(const void *p) { prefetchAhead(p); }
  static void prefetch(const void *a, const void *b) { prefetchAhead(a, b); }

  using BfpDatums = __m128i;
  static BfpDatums loadBfpDatums(unsigned datumBits,
                                 const unsigned char *datums) {
    return bfpBlockDatums(datumBits, datums);
  }
  __attribute__((target("ssse3"))) static void
  storeBfpDatums(unsigned datumBits, char *datums, BfpDatums values) {
    bfpStoreBlockDatums(datumBits, datums, values);
  }

  static void reportRead(const void *p, size_t bytes) {
#ifdef BIRSIM_TSAN
    __tsan_read_range(const_cast<void *>(p), bytes);
#else
    (void)p, (void)bytes;
#endif
  }
  static void reportWrite(void *p, size_t bytes) {
#ifdef BIRSIM_TSAN
    __tsan_write_range(p, bytes);
#else
    (void)p, (void)bytes;
#endif
  }
};

/// The constants of widening a format to fp32: exact, subnormals by an
/// exact multiply, NaN payloads moved up and not quieted (§4).
struct WidenConstants {
  explicit WidenConstants(const FloatFormat &f)
      : mantissaShift(int(f.mantissaBits)),
        signShift(int(f.exponentBits + f.mantissaBits)),
        toF32Mantissa(int(23 - f.mantissaBits)),
        exponentMask((1u << f.exponentBits) - 1),
        mantissaMask((1u << f.mantissaBits) - 1),
        rebias(uint32_t(127 - f.bias)),
        subnormalScale(std::ldexp(1.0f, 1 - f.bias - int(f.mantissaBits))),
        ieee(f.hasInf()),
        sameExponentsAsF32(f.exponentBits == 8 && f.bias == 127) {}

  int mantissaShift, signShift, toF32Mantissa;
  uint32_t exponentMask, mantissaMask, rebias;
  float subnormalScale;
  bool ieee;
  bool sameExponentsAsF32; ///< a bias-127 format's subnormals are fp32's
};

/// The constants of narrowing fp32 to a format under an FP8 config (§4):
/// round to nearest even on the magnitude's bit pattern for normal results,
/// by an exact float add of a magic constant for subnormal ones; overflow
/// and NaN per the config.
struct NarrowConstants {
  NarrowConstants(const FloatFormat &f, unsigned config) {
    unsigned m = f.mantissaBits, shift = 23 - m;
    uint32_t signBit = f.signMask(), maxFiniteCode = f.maxFiniteCode();
    dropShift = int(shift);
    signToFormat = int(31 - (f.exponentBits + m));
    rebias = uint32_t(f.bias - 127) << 23;
    roundBias = (1u << (shift - 1)) - 1;
    // Adding 2^(24 - bias - m) rounds a smaller magnitude at the format's
    // subnormal quantum 2^(1 - bias - m).
    magicBits = uint32_t(24 - f.bias - int(m) + 127) << 23;
    minNormal = uint32_t(1 - f.bias + 127) << 23;
    maxFinite = maxFiniteCode;
    bool saturate = config & kFp8Saturate;
    if (saturate || f.hasInf()) {
      overflowBase = saturate ? maxFiniteCode : f.infCode();
      overflowSign = signBit;
    } else { // e4m3fn without saturation: the format's NaN, unsigned
      overflowBase = f.nanResult;
      overflowSign = 0;
    }
    bool suppress = config & kFp8NanSuppress;
    nanBase = suppress ? 0 : f.nanResult;
    nanSign = !suppress && f.nanKeepsSign ? signBit : 0;
  }

  int dropShift, signToFormat;
  uint32_t rebias, roundBias, magicBits, minNormal, maxFinite;
  uint32_t overflowBase, overflowSign, nanBase, nanSign;
};

} // namespace birsim::core::kernel

#endif // BIRSIM_LIB_CORE_KERNELS_X86_H
