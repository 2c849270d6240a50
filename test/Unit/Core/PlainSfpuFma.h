//===- PlainSfpuFma.h - a deliberately plain SFPU FMA and value helpers -*- C++ -*-===//
//
// docs/Semantics.md section 9, "The FMA models", written out step by step on
// 64-bit integers, plus the small value helpers the instructions share (Dest
// storage encoding, the PRNG step, SFPLUT's tables, SFPCAST, SFP_STOCH_RND,
// SFPARECIP's table). Written from the documentation only (docs/Semantics.md
// section 9 and docs/Decisions.md D80-D89), independently of lib/: it is the
// oracle the core's SFPU is tested against. Arch: 0 Wormhole, 1 Blackhole.
//
//===----------------------------------------------------------------------===//
#ifndef BIRSIM_TEST_UNIT_CORE_PLAINSFPUFMA_H
#define BIRSIM_TEST_UNIT_CORE_PLAINSFPUFMA_H

#include <cstdint>

namespace birsim::test::plainsfpu {

constexpr int kWormhole = 0;
constexpr int kBlackhole = 1;

inline uint32_t signOf(uint32_t w) { return w >> 31; }
inline uint32_t expOf(uint32_t w) { return (w >> 23) & 0xFF; }
inline uint32_t fracOf(uint32_t w) { return w & 0x7FFFFF; }

/// Leading zeros of a 32-bit word, counted one bit at a time (32 for 0).
inline int countLeadingZeros32(uint32_t v) {
  int n = 0;
  for (int bit = 31; bit >= 0; --bit) {
    if ((v >> bit) & 1)
      break;
    ++n;
  }
  return n;
}

/// Step 5's "semi-sticky" right shift of a `width`-bit variable.
inline uint64_t semiStickyShift(uint64_t v, int d, int width) {
  if (d >= width)
    return 0;
  if (d <= 0)
    return v;
  uint64_t shifted = v >> d;
  uint64_t lost = v - (shifted << d);
  if (shifted != 0 && lost != 0)
    shifted |= 1;
  return shifted;
}

/// fma(x, y, z) = x * y + z of the architecture's model, the eight steps of
/// "The FMA models".
inline uint32_t fma(int arch, uint32_t x, uint32_t y, uint32_t z) {
  const bool wh = arch == kWormhole;
  // 1. Unpack.
  int64_t ex = expOf(x), ey = expOf(y), ez = expOf(z);
  uint64_t mx = ex == 0 ? 0 : (fracOf(x) | (1u << 23));
  uint64_t my = ey == 0 ? 0 : (fracOf(y) | (1u << 23));
  uint64_t mz = ez == 0 ? 0 : (fracOf(z) | (1u << 23));
  uint32_t ps = signOf(x) ^ signOf(y);
  uint32_t zs = signOf(z);
  uint32_t psBit = ps << 31, zsBit = zs << 31;

  // 2. Product and fold.
  uint64_t P = mx * my;
  int64_t pe = ex + ey - 127;
  uint64_t eightP = 8 * P;
  P = eightP / (1ull << 23);
  if (eightP % (1ull << 23) != 0)
    P |= 1;
  uint64_t Z = 8 * mz;
  int64_t ze = ez;

  // 3. Specials.
  bool haveNan = false;
  uint32_t nan = 0;
  if (ex == 255 || ey == 255 || pe >= 255 || ez == 255) {
    bool xNan = ex == 255 && mx != (1u << 23);
    bool yNan = ey == 255 && my != (1u << 23);
    bool zNan = ez == 255 && mz != (1u << 23);
    bool xInf = ex == 255 && mx == (1u << 23);
    bool yInf = ey == 255 && my == (1u << 23);
    bool zInf = ez == 255 && mz == (1u << 23);
    bool xZero = mx == 0, yZero = my == 0;
    if (!wh) {
      if (xNan || (xInf && yZero) || yNan || (yInf && xZero) || zNan ||
          (zInf && (ex == 255 || ey == 255) && zs != ps))
        return 0x7FC00000;
      if (zInf)
        return z;
      return psBit | 0x7F800000;
    }
    if (xNan || (xInf && yZero) || yNan || (yInf && xZero) ||
        (zInf && (ex == 255 || ey == 255 || pe >= 255) && zs != ps)) {
      haveNan = true;
      nan = psBit | 0x7F800001;
    } else if (zNan) {
      haveNan = true;
      nan = zsBit | 0x7F800001;
    } else if (zInf) {
      return z;
    } else {
      return psBit | 0x7F800000;
    }
    if (pe > 255)
      pe = 255;
  }

  // 4. Product below range.
  if (P == 0 || pe < 0) {
    if (!wh)
      return mz != 0 ? z : (zsBit & psBit);
    if (haveNan) {
      P = 0;
      pe = 0;
    } else {
      return mz != 0 ? z : 0u;
    }
  }

  // 5. Align.
  int64_t re = pe > ze ? pe : ze;
  if (pe >= ze)
    Z = semiStickyShift(Z, (int)(pe - ze > 64 ? 64 : pe - ze), 32);
  else
    P = semiStickyShift(P, (int)(ze - pe > 64 ? 64 : ze - pe), 64);

  // 6. Add.
  uint32_t rs = P >= Z ? ps : zs;
  uint64_t R;
  if (ps == zs)
    R = P + Z;
  else
    R = P >= Z ? P - Z : Z - P;
  if (R == 0) {
    if (!wh)
      return zsBit & psBit;
    return haveNan ? nan : 0u;
  }
  uint32_t rsBit = rs << 31;

  // 7. Normalise.
  int n = 5 - countLeadingZeros32((uint32_t)R);
  re += n;
  if (re >= 255) {
    if (wh && haveNan)
      return nan;
    return rsBit | 0x7F800000;
  }
  if (wh && re < 0)
    return haveNan ? nan : 0u;
  if (!wh && re <= 0) {
    n += 1;
    re = 0;
  }
  uint32_t R32 = (uint32_t)R;
  if (n <= 0) {
    R32 = R32 << (-n);
  } else if (wh) {
    R32 = (R32 >> n) | (R32 & 1);
  } else {
    uint32_t s = (R32 & ((uint32_t)n | 1)) != 0 ? 1 : 0;
    R32 = (R32 >> n) | s;
  }

  // 8. Round to nearest even on the 3 guard bits.
  uint32_t r = ((uint32_t)re << 23) + ((R32 >> 3) & 0x7FFFFF);
  if ((R32 & 7) + (r & 1) > 4)
    r += 1;
  if (!wh) {
    if (expOf(r) == 0)
      r = 0;
    return rsBit | r;
  }
  if (expOf(r) == 0)
    return haveNan ? nan : 0u;
  if (haveNan)
    return nan | r;
  return rsBit | r;
}

//===----------------------------------------------------------------------===//
// Dest's storage encoding ("Lanes and Dest").
//===----------------------------------------------------------------------===//

inline uint32_t encodeBf16Cell(uint32_t b) {
  uint32_t s = (b >> 15) & 1, e = (b >> 7) & 0xFF, f = b & 0x7F;
  return (s << 15) | (f << 8) | e;
}
inline uint32_t decodeBf16Cell(uint32_t c) {
  uint32_t s = (c >> 15) & 1, f = (c >> 8) & 0x7F, e = c & 0xFF;
  return (s << 15) | (e << 7) | f;
}
inline uint32_t encodeFp16Cell(uint32_t h) {
  uint32_t s = (h >> 15) & 1, e = (h >> 10) & 0x1F, f = h & 0x3FF;
  return (s << 15) | (f << 5) | e;
}
inline uint32_t decodeFp16Cell(uint32_t c) {
  uint32_t s = (c >> 15) & 1, f = (c >> 5) & 0x3FF, e = c & 0x1F;
  return (s << 15) | (e << 10) | f;
}
/// A 32-bit value as its cell pair, high cell in bits 31-16.
inline uint32_t encode32(uint32_t w) {
  return (encodeBf16Cell(w >> 16) << 16) | (w & 0xFFFF);
}
inline uint32_t decode32(uint32_t pair) {
  return (decodeBf16Cell(pair >> 16) << 16) | (pair & 0xFFFF);
}

//===----------------------------------------------------------------------===//
// Per-instruction value helpers.
//===----------------------------------------------------------------------===//

/// One PRNG step: bit 31 of the new state is 1 when s & 0x80200003 has an
/// even number of set bits.
inline uint32_t prngStep(uint32_t s) {
  uint32_t t = s & 0x80200003u;
  int ones = 0;
  for (int bit = 0; bit < 32; ++bit)
    ones += (t >> bit) & 1;
  uint32_t top = (ones % 2 == 0) ? 1u : 0u;
  return (top << 31) | (s >> 1);
}

/// The total order of SFPSWAP, SFPLE, SFPGT.
inline int32_t orderKey(uint32_t x) {
  if (x >> 31)
    return (int32_t)(x ^ 0x7FFFFFFFu);
  return (int32_t)x;
}

inline uint32_t lut8(uint32_t byte) {
  if (byte == 0xFF)
    return 0;
  uint32_t s = (byte >> 7) & 1, eee = (byte >> 4) & 7, mmmm = byte & 0xF;
  return (s << 31) | ((127 - eee) << 23) | (mmmm << 19);
}

inline uint32_t lut16(uint32_t h) {
  uint32_t s = (h >> 15) & 1, e = (h >> 10) & 0x1F, f = h & 0x3FF;
  uint32_t ee = e == 31 ? 0 : e + 112;
  return (s << 31) | (ee << 23) | (f << 13);
}

/// SFPCAST mode 0: sign-magnitude int32 to fp32, round to nearest even.
inline uint32_t castSignMagnitudeToFloat(uint32_t x) {
  uint32_t s = x & 0x80000000u;
  uint32_t M = x & 0x7FFFFFFFu;
  if (M == 0)
    return s;
  int z = countLeadingZeros32(M);
  uint32_t N = M << z;
  uint32_t r = ((uint32_t)(157 - z) << 23) + (N >> 8);
  bool bit7 = (N >> 7) & 1;
  bool others = ((N >> 8) & 1) || (N & 0x7F) != 0;
  if (bit7 && others)
    r += 1;
  return s | r;
}

/// SFP_STOCH_RND modes 1, 2, 3, 6, 7 (the rounding, not the PRNG step).
inline uint32_t stochRound(int mode, uint32_t x) {
  uint32_t e = expOf(x);
  if (mode == 1) {
    if (e == 0)
      return 0;
    if (e == 255)
      return x & 0xFF800000u;
    uint32_t low = x & 0xFFFF;
    uint32_t r = x & 0xFFFF0000u;
    if (low >= 0x8000)
      r += 0x10000;
    return r;
  }
  uint32_t bound = mode == 2 ? 255 : mode == 3 ? 127 : mode == 6 ? 65535 : 32767;
  bool isSigned = mode == 3 || mode == 7;
  uint32_t sign = isSigned ? (x & 0x80000000u) : 0;
  int E = (int)e - 127;
  if (E < -1)
    return 0;
  if (E >= 16)
    return sign | bound;
  uint64_t m = (1u << 23) | fracOf(x);
  if (E >= 0)
    m = m << E;
  else
    m = m >> 1;
  uint64_t mag = (m >> 23) + ((m & 0x7FFFFF) >= 0x400000 ? 1 : 0);
  if (mag > bound)
    mag = bound;
  if (mag == 0)
    return 0;
  return sign | (uint32_t)mag;
}

/// SFPARECIP's table entry i: round(65536 / (257 + 2i)) - 128 (never a tie).
inline uint32_t arecipTable(uint32_t i) {
  uint32_t d = 257 + 2 * i;
  uint32_t q = (2 * 65536 + d) / (2 * d); // round(65536 / d)
  return q - 128;
}

inline uint32_t arecip(uint32_t x) {
  uint32_t s = x & 0x80000000u;
  uint32_t a = x & 0x7FFFFFFFu;
  if (a < 0x00800000u)
    return s | 0x7F800000u;
  if (a < 0x7E800000u)
    return s | ((253 - expOf(x)) << 23) | (arecipTable((a >> 16) & 0x7F) << 16);
  return s;
}

} // namespace birsim::test::plainsfpu

#endif // BIRSIM_TEST_UNIT_CORE_PLAINSFPUFMA_H
