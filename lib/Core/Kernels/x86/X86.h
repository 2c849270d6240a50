//===- X86.h - what every x86 path's kernels share --------------*- C++ -*-===//
//
// Private to lib/Core/Kernels/x86. The x86 paths' prelude (PathPrelude.h):
// included by Avx2.cpp and Avx512.cpp before their target regions, so these
// inline functions are plain x86-64 code (SSE only) in both, as the
// one-definition rule needs.
//
//===----------------------------------------------------------------------===//
#ifndef BIRSIM_LIB_CORE_KERNELS_X86_H
#define BIRSIM_LIB_CORE_KERNELS_X86_H

#include "../PathPrelude.h"

#include <immintrin.h>

#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define BIRSIM_TSAN 1
// Exported by TSan's runtime, not declared by <sanitizer/tsan_interface.h>.
extern "C" void __tsan_read_range(void *address, unsigned long size);
extern "C" void __tsan_write_range(void *address, unsigned long size);
#endif
#endif

/// Opens a region whose functions are compiled for `Features` (a target
/// attribute string), closed by BIRSIM_TARGET_REGION_END: a path's vocabulary
/// and everything instantiated over it live inside one.
#define BIRSIM_PRAGMA(Text) _Pragma(#Text)
#if defined(__clang__)
#define BIRSIM_TARGET_REGION_BEGIN(Features)                                   \
  BIRSIM_PRAGMA(clang attribute push(__attribute__((target(Features))),       \
                                     apply_to = function))
#define BIRSIM_TARGET_REGION_END BIRSIM_PRAGMA(clang attribute pop)
#else // GCC: the functions defined in the region, templates included
#define BIRSIM_TARGET_REGION_BEGIN(Features)                                   \
  BIRSIM_PRAGMA(GCC push_options) BIRSIM_PRAGMA(GCC target(Features))
#define BIRSIM_TARGET_REGION_END BIRSIM_PRAGMA(GCC pop_options)
#endif
/// The x86 paths' features (Select.cpp's probes check the same).
#define BIRSIM_AVX2_FEATURES "avx2,f16c,fma,popcnt"
#define BIRSIM_AVX512_FEATURES "avx512f,avx512bw,avx512vl,avx2,f16c,fma,popcnt"

namespace birsim::core::kernel {

/// Entered by every kernel. Sets the default MXCSR (round to nearest even,
/// no FTZ/DAZ, exceptions masked) for the kernel's duration, whatever the
/// caller set (§2). ThreadSanitizer does not instrument vector accesses, so
/// in TSan builds the kernel's whole source and destination ranges are
/// reported to it here.
class MxcsrGuard {
public:
  MxcsrGuard(const void *src, size_t srcBytes, void *dst, size_t dstBytes)
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
  ~MxcsrGuard() { _mm_setcsr(saved); }
  MxcsrGuard(const MxcsrGuard &) = delete;
  MxcsrGuard &operator=(const MxcsrGuard &) = delete;

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

/// The low bytes of dwords 0-3, in order, as one word.
__attribute__((target("ssse3"))) inline uint32_t lowBytesOfDwords(__m128i v) {
  return uint32_t(_mm_cvtsi128_si32(
      _mm_shuffle_epi8(v, _mm_setr_epi8(0, 4, 8, 12, -1, -1, -1, -1, -1, -1, -1,
                                        -1, -1, -1, -1, -1))));
}

/// What every x86 path's vocabulary (Vocabulary.h) shares: the MXCSR guard,
/// prefetching, and a BFP block's 16 datum bytes in an SSE register.
struct X86Vocabulary {
  using Guard = MxcsrGuard;
  static void prefetch(const void *p) { prefetchAhead(p); }
  static void prefetch(const void *a, const void *b) { prefetchAhead(a, b); }
  /// The line at `p` into the second-level cache.
  static void prefetchLine(const void *p) {
    _mm_prefetch(static_cast<const char *>(p), _MM_HINT_T1);
  }
  /// The line at `p` into the first-level cache, to be read.
  static void prefetchLineForRead(const void *p) {
    _mm_prefetch(static_cast<const char *>(p), _MM_HINT_T0);
  }
  /// The line at `p` into the first-level cache, to be written (PREFETCHW,
  /// which decodes as a no-op on an x86-64 processor without it).
  static void prefetchLineForWrite(void *p) {
    asm volatile("prefetchw %0" : : "m"(*static_cast<const char *>(p)));
  }
  /// Orders the streaming stores before it before every later store.
  static void streamFence() { _mm_sfence(); }

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

} // namespace birsim::core::kernel

#endif // BIRSIM_LIB_CORE_KERNELS_X86_H
