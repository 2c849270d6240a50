//===- LaneReference.h - the portable lane operations -----------*- C++ -*-===//
//
// What each lane operation of a path's vocabulary (lib/Core/Kernels/
// Vocabulary.h, LaneArithmetic.h's GenericLaneOps) computes on one lane,
// written plainly from its contract, and the edge lanes every operation is
// run on. Included before any target region: plain baseline code.
//
//===----------------------------------------------------------------------===//
#ifndef BIRSIM_TEST_UNIT_CORE_KERNELS_LANEREFERENCE_H
#define BIRSIM_TEST_UNIT_CORE_KERNELS_LANEREFERENCE_H

#include "birsim/Core/Dtype.h"
#include "birsim/Core/Float.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace birsim::test::lanes {

/// The first wrong lane of each operation, by name.
struct Failures {
  std::vector<std::string> lines, seen;
  void add(const std::string &path, const char *op, unsigned bits,
           const std::string &operands, uint64_t got, uint64_t want) {
    std::string key = path + " " + op + " " + std::to_string(bits);
    for (const std::string &k : seen)
      if (k == key)
        return;
    seen.push_back(key);
    char text[200];
    std::snprintf(text, sizeof text, "%s %s on %u-bit lanes%s: 0x%llx, portable 0x%llx",
                  path.c_str(), op, bits, operands.c_str(),
                  (unsigned long long)got, (unsigned long long)want);
    lines.push_back(text);
  }
  std::string text() const {
    std::string all;
    for (const std::string &line : lines)
      all += line + "\n";
    return all;
  }
};

inline std::string hexList(const std::vector<uint64_t> &values) {
  std::string s = "(";
  for (uint64_t v : values) {
    char t[24];
    std::snprintf(t, sizeof t, "%s0x%llx", s.size() > 1 ? ", " : "",
                  (unsigned long long)v);
    s += t;
  }
  return s + ")";
}

inline uint32_t laneMask(unsigned bits) {
  return bits == 32 ? ~0u : (1u << bits) - 1;
}
inline int32_t signedLane(uint32_t v, unsigned bits) {
  return bits == 32 ? int32_t(v) : int32_t(v << (32 - bits)) >> (32 - bits);
}
inline float asF32(uint32_t v) {
  float f;
  std::memcpy(&f, &v, 4);
  return f;
}
inline uint32_t bitsOf(float f) {
  uint32_t v;
  std::memcpy(&v, &f, 4);
  return v;
}

/// Edge lanes of `bits` bits: zeros, ones, the signed and unsigned
/// extremes and their neighbours, every single bit, and, for 32 bits,
/// fp32's: ±0, denormals, the smallest and largest normals, ±1, ±Inf, quiet
/// and signalling NaNs with payloads and both signs; then seeded random
/// lanes.
inline std::vector<uint32_t> edgeLanes(unsigned bits) {
  uint32_t mask = laneMask(bits), sign = 1u << (bits - 1);
  std::vector<uint32_t> v = {0, 1, 2, 3, mask, mask - 1, sign, sign - 1,
                             sign + 1, 0x55555555u & mask, 0xAAAAAAAAu & mask};
  for (unsigned b = 0; b < bits; ++b)
    v.push_back(1u << b);
  if (bits == 32)
    for (uint32_t f : {0x80000000u, 0x00000001u, 0x807FFFFFu, 0x007FFFFFu,
                       0x00800000u, 0x80800000u, 0x3F800000u, 0xBF800000u,
                       0x7F7FFFFFu, 0xFF7FFFFFu, 0x7F800000u, 0xFF800000u,
                       0x7FC00000u, 0xFFC00000u, 0x7F800001u, 0xFFA00005u,
                       0x7FC12345u, 0x4B000000u, 0xCF000000u, 0x4EFFFFFFu,
                       0x3F000000u, 0xBFC00000u, 0x40490FDBu})
      v.push_back(f);
  std::mt19937 rng(bits);
  for (int i = 0; i < 16; ++i)
    v.push_back(uint32_t(rng()) & mask);
  return v;
}

/// fp32 results compared as bits, any NaN matching any NaN (which NaN a
/// vector add returns depends on the operand order the compiler chose;
/// the lane arithmetic fixes NaNs itself, LaneArithmetic.h's addssLanes).
inline bool sameFloatLane(uint32_t got, uint32_t want) {
  return got == want || (core::isNaNF32(got) && core::isNaNF32(want));
}

/// fp16 sums rounded to nearest even (X::f16Sums), any NaN for a NaN.
inline uint32_t f16Sum(uint32_t a, uint32_t b) {
  const core::FloatFormat &f16 = *core::lookupDtype(int(core::Dtype::float16))->format;
  float sum = asF32(core::widenToF32(f16, a)) + asF32(core::widenToF32(f16, b));
  return core::narrowFromF32(f16, bitsOf(sum), 0);
}

} // namespace birsim::test::lanes

#endif // BIRSIM_TEST_UNIT_CORE_KERNELS_LANEREFERENCE_H
