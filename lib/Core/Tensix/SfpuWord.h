//===- SfpuWord.h - the fields and values of SFPU words ---------*- C++ -*-===//
//
// Shared by the checks (SfpuChecks.cpp) and the execution (SfpuExecute.cpp)
// of SFPU instruction words: the fields at their fixed positions, and the
// value conversions the instructions use (docs/Semantics.md section 9
// [ttsim] src/tensix.cpp @56694c8).
//
//===----------------------------------------------------------------------===//
#ifndef BIRSIM_LIB_CORE_TENSIX_SFPUWORD_H
#define BIRSIM_LIB_CORE_TENSIX_SFPUWORD_H

#include "SfpuExecute.h"

#include <cstdio>
#include <cstdint>
#include <string>

namespace birsim::core::sfpu {

/// A message with up to two numbers, ttsim's printf style.
inline std::string format(const char *pattern, long long a,
                          long long b = 0) {
  char text[160];
  std::snprintf(text, sizeof(text), pattern, a, b);
  return text;
}

//===-- Words ----------------------------------------------------------------//

/// The fields of a word (§9 "Decoding"): fixed positions, since a word
/// with bits outside its instruction's fields never gets here.
struct Fields {
  explicit Fields(uint32_t word) : word(word) {}
  uint32_t word;
  unsigned opcode() const { return word >> 24; }
  unsigned mod1() const { return word & 0xF; }
  unsigned dest() const { return word >> 4 & 0xF; }
  unsigned c() const { return word >> 8 & 0xF; }
  unsigned b() const { return word >> 12 & 0xF; }
  unsigned a() const { return word >> 16 & 0xF; }
  unsigned imm12() const { return word >> 12 & 0xFFF; }
  unsigned imm16Math() const { return word >> 8 & 0xFFFF; }
  unsigned imm16() const { return word & 0xFFFF; }
  unsigned mod0() const { return word >> 16 & 0xF; }
  unsigned lregInd() const { return word >> 20 & 0xF; }
  unsigned destRegAddr() const { return word & 0x3FF; }
  unsigned imm8() const { return word >> 16 & 0x1F; }
  unsigned rndMode() const { return word >> 21 & 3; }
};

/// Opcodes stored as SFPLOADMACRO templates when bits 7-4 are 12 or more
/// (§9 "Decoding" step 1).
inline bool isTemplateStore(int arch, unsigned opcode) {
  if (opcode >= 0x74 && opcode <= 0x90)
    return true;
  if (opcode == 0x92 || opcode == 0x94 || opcode == 0x95)
    return true;
  return arch == int(TensixArch::blackhole) && opcode >= 0x96 &&
         opcode <= 0x99;
}

//===-- Values ---------------------------------------------------------------//

/// ttsim's Dest storage encoding of a bf16 and an fp16 value, and back.
inline uint32_t encodeBf16(uint32_t x) {
  return (x & 0x8000) | (x & 0x7F) << 8 | (x >> 7 & 0xFF);
}
inline uint32_t decodeBf16(uint32_t x) {
  return (x & 0x8000) | (x & 0xFF) << 7 | (x >> 8 & 0x7F);
}
inline uint32_t encodeFp32(uint32_t x) {
  return encodeBf16(x >> 16) << 16 | (x & 0xFFFF);
}
inline uint32_t decodeFp32(uint32_t x) {
  return decodeBf16(x >> 16) << 16 | (x & 0xFFFF);
}
inline uint32_t encodeFp16(uint32_t x) {
  return (x & 0x8000) | (x & 0x3FF) << 5 | (x >> 10 & 0x1F);
}
inline uint32_t decodeFp16(uint32_t x) {
  return (x & 0x8000) | (x & 0x1F) << 10 | (x >> 5 & 0x3FF);
}

/// Denormals as zeros, keeping the sign.
inline uint32_t flushDenormal(uint32_t x) {
  return (x & 0x7FFFFFFF) < 0x800000 ? x & 0x80000000 : x;
}

/// The fp16 an fp32 word stores as (§9 "SFPSTORE", mode 1).
inline uint32_t storeFp16(uint32_t x) {
  uint32_t sign = x >> 31 << 15;
  int32_t e = int32_t(x >> 23 & 0xFF) - 112;
  if (e <= 0)
    return sign;
  if (e > 31)
    return sign | 0x7FFF;
  return sign | uint32_t(e) << 10 | (x & 0x7FFFFF) >> 13;
}

/// The words' total order of SFPSWAP, SFPLE, SFPGT.
inline int32_t orderKey(uint32_t x) {
  return int32_t(x & 0x80000000 ? x ^ 0x7FFFFFFF : x);
}

inline uint32_t stepPrng(uint32_t s) {
  uint32_t taps = uint32_t(__builtin_popcount(s & 0x80200003));
  return (~taps << 31) | (s >> 1);
}

/// SFPLUT's coefficient bytes and SFPLUTFP32's halves as fp32 words.
inline uint32_t lutByte(uint32_t x) {
  if (x == 0xFF)
    return 0;
  return (x >> 7) << 31 | (127 - (x >> 4 & 7)) << 23 | (x & 15) << 19;
}
inline uint32_t lutHalf(uint32_t x) {
  uint32_t e = x >> 10 & 31;
  return (x >> 15) << 31 | (e == 31 ? 0 : 112 + e) << 23 | (x & 0x3FF) << 13;
}

/// SFPARECIP's table (docs/generated/sfparecip-table.txt): entry i is
/// round(65536 / (257 + 2 i)) - 128.
struct RecipTable {
  uint8_t entry[128];
  constexpr RecipTable() : entry() {
    for (unsigned i = 0; i < 128; ++i) {
      unsigned d = 257 + 2 * i;
      entry[i] = uint8_t((65536 + d / 2) / d - 128);
    }
  }
};
inline constexpr RecipTable kRecip;

inline uint32_t approximateReciprocal(uint32_t a) {
  if (a < 0x800000)
    return 0x7F800000;
  if (a < 0x7E800000)
    return (253 - (a >> 23)) << 23 | uint32_t(kRecip.entry[a >> 16 & 0x7F])
                                         << 16;
  return 0;
}

/// SFP_STOCH_RND's non-stochastic modes (§9 "SFP_STOCH_RND").
inline uint32_t roundStochRnd(unsigned mode, uint32_t x) {
  if (mode == 1) { // FP32_TO_FP16B: half away from zero on the magnitude
    uint32_t e = x >> 23 & 0xFF;
    if (e == 0)
      return 0;
    if (e == 255)
      return x & 0xFF800000;
    uint32_t low = x & 0xFFFF;
    return x - low + (low >= 0x8000 ? 0x10000 : 0);
  }
  const bool keepSign = mode & 1;
  const uint32_t bound =
      mode == 6 ? 65535 : mode == 7 ? 32767 : mode == 2 ? 255 : 127;
  uint32_t sign = keepSign ? x & 0x80000000 : 0;
  int32_t e = int32_t(x >> 23 & 0xFF) - 127;
  if (e < -1)
    return 0;
  if (e >= 16)
    return sign | bound;
  uint64_t m = 0x800000 | (x & 0x7FFFFF);
  m = e >= 0 ? m << e : m >> -e;
  m = (m >> 23) + ((m & 0x7FFFFF) >= 0x400000);
  if (m > bound)
    m = bound;
  if (m == 0)
    sign = 0;
  return sign + uint32_t(m);
}

/// SFPCAST mode 0: sign-magnitude int32 to fp32, nearest even.
inline uint32_t castInt32(uint32_t x) {
  uint32_t result = x & 0x80000000;
  uint32_t magnitude = x & 0x7FFFFFFF;
  if (!magnitude)
    return result;
  unsigned zeros = unsigned(__builtin_clz(magnitude));
  magnitude <<= zeros;
  result |= ((157 - zeros) << 23) + (magnitude >> 8);
  if ((magnitude & 0x80) && (magnitude & 0x17F))
    ++result;
  return result;
}

} // namespace birsim::core::sfpu

#endif // BIRSIM_LIB_CORE_TENSIX_SFPUWORD_H
