//===- PlainTensix.h - a deliberately plain Tensix FPU and packer -*- C++ -*-===//
//
// docs/Semantics.md section 7 written out step by step, on explicit fields
// and 64-bit integers (divisions instead of masks, loops instead of bit
// counts): the oracle lib/Core/Tensix.cpp is tested against. Nothing here
// calls the core. Settings are plain numbers: arch 0 Wormhole, 1 Blackhole;
// dest 0 fp32, 1 bf16, 2 fp16; src 0 tf32, 1 bf16, 2 fp16; op 0 mul, 1 add,
// 2 sub.
//
//===----------------------------------------------------------------------===//
#ifndef BIRSIM_TEST_UNIT_CORE_PLAINTENSIX_H
#define BIRSIM_TEST_UNIT_CORE_PLAINTENSIX_H

#include <cmath>
#include <cstdint>
#include <cstring>

namespace birsim::test::plaintensix {

/// A Src operand: sign, exponent field, 11-bit significand; zero when the
/// exponent field is 0.
struct Operand {
  int sign;
  int64_t exponent;
  int64_t significand;
  bool zero() const { return exponent == 0; }
};

inline uint32_t bitsOf(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}
inline float floatOf(uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

/// "Operands": a float32 value into Src by format class.
inline Operand operandOf(int src, uint32_t x) {
  int sign = int(x / 0x80000000u);
  int64_t exponent = (x / 0x800000u) % 256;
  int64_t fraction23 = x % 0x800000u;
  if (src == 0) // TF32: the top 10 fraction bits
    return {sign, exponent, 1024 + fraction23 / 8192};
  if (src == 1) { // BF16: denormals to zero, 7 fraction bits
    if (exponent == 0)
      return {sign, 0, 1024};
    return {sign, exponent, 1024 + (fraction23 / 65536) * 8};
  }
  int64_t e = exponent - 112; // FP16
  if (e < 0)
    return {sign, 0, 1024};
  if (e > 31)
    return {sign, 31, 2047};
  return {sign, e, 1024 + fraction23 / 8192};
}

/// A signed addend: magnitude · 2^(exponent - 150) for an 8-bit exponent.
struct Addend {
  int sign;
  int64_t exponent;
  int64_t magnitude;
};

inline int64_t pow2(int64_t n) { return int64_t(1) << n; }

/// Floor division for a possibly negative numerator.
inline int64_t floorDiv(int64_t n, int64_t d) {
  int64_t q = n / d;
  return (n % d != 0 && (n < 0) != (d < 0)) ? q - 1 : q;
}

/// The alignment rounding: floor((m + 2^(k-1) - sign) / 2^k); 0 from 31
/// places on.
inline int64_t alignDown(int64_t magnitude, int sign, int64_t places) {
  if (places >= 31)
    return 0;
  return floorDiv(magnitude + pow2(places - 1) - sign, pow2(places));
}

inline int bitLength(int64_t v) {
  int n = 0;
  while (v > 0) {
    v /= 2;
    ++n;
  }
  return n;
}

/// A Dest word as a float32-laid 32-bit value: sign, exponent, fraction.
struct DestWord {
  int sign;
  int64_t exponent;
  int64_t fraction; // 23 bits
  uint32_t bits() const {
    return uint32_t(sign) * 0x80000000u + uint32_t(exponent) * 0x800000u +
           uint32_t(fraction);
  }
};

inline DestWord readDest(int dest, uint32_t stored) {
  if (dest == 0)
    return {int(stored >> 31), (stored >> 23) & 255, stored & 0x7FFFFF};
  if (dest == 1)
    return {int(stored >> 15), (stored >> 7) & 255, int64_t(stored & 127) << 16};
  return {int(stored >> 15), (stored >> 10) & 31, int64_t(stored & 1023) << 13};
}

inline uint32_t writeDest(int dest, DestWord w) {
  if (dest == 0)
    return w.bits();
  if (dest == 1)
    return uint32_t(w.sign) << 15 | uint32_t(w.exponent) << 7 |
           uint32_t(w.fraction >> 16);
  return uint32_t(w.sign) << 15 | uint32_t(w.exponent) << 10 |
         uint32_t(w.fraction >> 13);
}

/// "Adding into Dest": two terms into Dest (an absent term is {0, 0, 0}).
inline DestWord addInto2(int arch, int dest, Addend term0, Addend term1,
                         DestWord d, bool *quirk = nullptr) {
  int64_t destMagnitude = d.exponent == 0 ? 0 : pow2(23) + d.fraction;
  int64_t top = d.exponent;
  for (const Addend &term : {term0, term1})
    if (term.exponent > top)
      top = term.exponent;
  if (top <= 0)
    return {0, 0, 0};
  int64_t m = destMagnitude;
  if (d.exponent < top)
    m = alignDown(m, 0, top - d.exponent);
  if (dest != 0) // 16-bit Dest: the low 13 bits rounded away
    m = floorDiv(m + 4096, 8192) * 8192;
  int64_t signedSum = d.sign ? -m : m;
  for (const Addend &term : {term0, term1}) {
    int64_t t = term.magnitude;
    if (term.exponent < top)
      t = alignDown(t, term.sign, top - term.exponent);
    if (dest != 0)
      t = floorDiv(t + 4096 - term.sign, 8192) * 8192;
    signedSum += term.sign ? -t : t;
  }
  if (signedSum == 0)
    return {0, 0, 0};
  int sign = signedSum < 0;
  int64_t magnitude = sign ? -signedSum : signedSum;
  int64_t exponent = top;
  int length = bitLength(magnitude);
  int64_t shift = 24 - length; // left shift to 24 bits
  if (arch == 0 && sign == 1 && magnitude == 1) {
    shift = -4;
    if (quirk)
      *quirk = true;
  }
  exponent -= shift;
  int kept = dest == 0 ? 24 : dest == 1 ? 8 : 11;
  int64_t toKept = shift - (24 - kept);
  if (toKept < 0)
    magnitude = floorDiv(magnitude + pow2(-toKept - 1), pow2(-toKept));
  else
    magnitude *= pow2(toKept);
  magnitude *= pow2(24 - kept);
  if (magnitude >= pow2(24))
    exponent += 1;
  int64_t fraction = magnitude % pow2(23);
  if (exponent <= 0)
    return {0, 0, 0};
  if (dest == 2) {
    if (exponent > 31)
      return {sign, 31, 1023 * 8192};
  } else if (exponent >= 255) {
    return {sign, 255, 0};
  }
  return {sign, exponent, fraction};
}

inline DestWord addInto(int arch, int dest, Addend term, DestWord d,
                        bool *quirk = nullptr) {
  return addInto2(arch, dest, term, {0, 0, 0}, d, quirk);
}

/// The rebias of a product at `phase` ("Products").
inline int64_t rebias(int dest, int src, int phase) {
  int64_t r = src != 2 ? -127 : dest == 0 ? 97 : -15;
  if (phase % 2 == 1)
    r -= 5;
  if (phase >= 2)
    r -= 7;
  return r;
}

inline Addend product(int dest, int src, int phase, Operand a, Operand b) {
  int64_t r = rebias(dest, src, phase);
  int64_t sa = phase % 2 == 0 ? a.significand / 64 : (a.significand / 2) % 32;
  int64_t sb = phase < 2 ? b.significand / 16 : (b.significand % 16) * 8;
  int64_t exponent = a.exponent + b.exponent + r;
  if (a.zero() || b.zero() || exponent <= 0)
    return {0, r > 0 ? r : 0, 0};
  return {a.sign != b.sign, exponent, sa * sb * 8192};
}

inline Addend sum(int dest, int src, bool subtract, Operand a, Operand b) {
  if (subtract)
    b.sign = 1 - b.sign;
  if (a.zero())
    a = {0, 0, 0};
  if (b.zero())
    b = {0, 0, 0};
  auto key = [](Operand o) { return o.exponent * 1024 + o.significand % 1024; };
  if (key(a) < key(b)) {
    Operand t = a;
    a = b;
    b = t;
  }
  int64_t first = a.exponent == 0 ? 0 : a.significand;
  int64_t second = b.exponent == 0 ? 0 : b.significand;
  int64_t places = a.exponent - b.exponent;
  if (places > 0)
    second = places < 12 ? (second + pow2(places - 1)) / pow2(places) : 0;
  int64_t magnitude = a.sign == b.sign ? first + second : first - second;
  int64_t exponent = a.exponent;
  if (dest == 0 && src == 2)
    exponent = exponent == 0 ? 97 : exponent + 112;
  return {a.sign, exponent, magnitude * 8192};
}

/// birsim_tensix_eltwise on one element: a, b float32 bits, `stored` the
/// Dest's storage bits; returns the new storage bits.
inline uint32_t eltwise(int arch, int op, unsigned phases, int dest, int src,
                        uint32_t a, uint32_t b, uint32_t stored,
                        bool accumulate, bool *quirk = nullptr) {
  Operand oa = operandOf(src, a), ob = operandOf(src, b);
  DestWord d = accumulate ? readDest(dest, stored) : DestWord{0, 0, 0};
  if (op == 0) {
    for (int phase = 0; phase < 4; ++phase)
      if (phases & (1u << phase))
        d = addInto(arch, dest, product(dest, src, phase, oa, ob), d, quirk);
  } else {
    d = addInto(arch, dest, sum(dest, src, op == 2, oa, ob), d, quirk);
  }
  return writeDest(dest, d);
}

//===-- MVMUL and matmul_tiles ---------------------------------------------===//

/// "MVMUL": one Dest element at `phase`, `a` 16 SrcA operands down K, `b`
/// 16 SrcB operands along K; two groups of 8, each aligned to its largest
/// exponent with the magnitude rounded half up, then both into Dest.
inline DestWord mvmul(int arch, int dest, int srcA, int phase,
                      const Operand *a, const Operand *b, DestWord d,
                      bool *quirk = nullptr) {
  int64_t r = rebias(dest, srcA, phase);
  Addend groups[2] = {{0, 0, 0}, {0, 0, 0}};
  for (int g = 0; g < 2; ++g) {
    Addend products[8];
    int64_t top = 0;
    for (int i = 0; i < 8; ++i) {
      const Operand &x = a[8 * g + i], &y = b[8 * g + i];
      if (x.zero() || y.zero()) {
        products[i] = {0, r > 0 ? r : 0, 0};
      } else {
        int64_t sa = phase % 2 == 0 ? x.significand / 64
                                    : (x.significand / 2) % 32;
        int64_t sb = phase < 2 ? y.significand / 16 : (y.significand % 16) * 8;
        products[i] = {x.sign != y.sign, x.exponent + y.exponent + r, sa * sb};
      }
      if (i == 0 || products[i].exponent > top)
        top = products[i].exponent;
    }
    if (top <= 0)
      continue;
    int64_t sum = 0;
    for (const Addend &product : products) {
      int64_t places = top - product.exponent;
      if (places > 30)
        places = 30;
      int64_t aligned = floorDiv(2 * product.magnitude + pow2(places),
                                 pow2(places + 1));
      sum += product.sign ? -aligned : aligned;
    }
    groups[g] = {sum < 0, top, (sum < 0 ? -sum : sum) * 8192};
  }
  return addInto2(arch, dest, groups[0], groups[1], d, quirk);
}

/// birsim_tensix_matmul: in0 (m x k) as SrcB, in1 (k x n) as SrcA, float32
/// bits; `stored` Dest's storage bits (m x n), read when accumulating and
/// overwritten. Per output: K tiles in order, the phases ascending, K 0-15
/// then 16-31 of the tile.
inline void matmul(int arch, unsigned phases, int dest, int in0Src,
                   int in1Src, const uint32_t *in0, const uint32_t *in1,
                   int64_t m, int64_t k, int64_t n, uint32_t *stored,
                   bool accumulate) {
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      DestWord d = accumulate ? readDest(dest, stored[i * n + j])
                              : DestWord{0, 0, 0};
      for (int64_t kt = 0; kt < k; kt += 32)
        for (int phase = 0; phase < 4; ++phase) {
          if (!(phases & (1u << phase)))
            continue;
          for (int64_t half = kt; half < kt + 32; half += 16) {
            Operand a[16], b[16];
            for (int64_t t = 0; t < 16; ++t) {
              a[t] = operandOf(in1Src, in1[(half + t) * n + j]);
              b[t] = operandOf(in0Src, in0[i * k + half + t]);
            }
            d = mvmul(arch, dest, in1Src, phase, a, b, d);
          }
        }
      stored[i * n + j] = writeDest(dest, d);
    }
}

//===-- The packer ---------------------------------------------------------===//

/// The packer's value step: dest 0/1/2, out "f32", "bf16", "f16".
inline uint32_t pack(int arch, int dest, char out, uint32_t v) {
  if (dest == 0) {
    uint32_t sign = v >> 31, e = (v >> 23) & 255, f = v & 0x7FFFFF;
    if (out == 'f')
      return v;
    if (e == 255 && f != 0) // NaN to Inf
      f = 0;
    uint32_t x = sign << 31 | e << 23 | f;
    if (out == 'b') {
      uint32_t r = (x + 32768) / 65536;
      return ((r % 32768) / 128 == 0) ? 0 : r;
    }
    if (arch == 0) { // truncation
      int64_t e16 = int64_t(e) - 112;
      if (e16 < 0)
        return sign << 15;
      if (e16 > 31)
        return sign << 15 | 0x7FFF;
      return sign << 15 | uint32_t(e16) << 10 | f / 8192;
    }
    uint32_t t = (x + 4096) / 8192; // 19 bits, half up
    uint32_t ts = t >> 18, te = (t >> 10) & 255, tf = t & 1023;
    if (te == 0)
      return 0;
    int64_t e16 = int64_t(te) - 112;
    if (e16 < 0)
      return ts << 15;
    if (e16 > 31)
      return ts << 15 | 0x7FFF;
    return ts << 15 | uint32_t(e16) << 10 | tf;
  }
  uint32_t sign = v >> 15;
  if (dest == 1) {
    uint32_t e = (v >> 7) & 255, f = v & 127;
    uint32_t r = v;
    if (e == 255 && f != 0)
      r = sign << 15 | 0x7F80;
    else if (e == 0)
      r = 0;
    return out == 'f' ? r << 16 : r;
  }
  uint32_t e = (v >> 10) & 31, f = v & 1023;
  if (e == 0)
    return 0;
  if (out == 'h')
    return v;
  if (out == 'f')
    return sign << 31 | (e + 112) << 23 | f << 13;
  return sign << 15 | (e + 112) << 7 | f / 8;
}

/// Pack_L1_Acc: l (in L1) plus v, out 'f', 'b' or 'h'.
inline uint32_t l1Accumulate(char out, uint32_t l, uint32_t v) {
  if (out == 'f') {
    auto daz = [](uint32_t x) {
      return ((x >> 23) & 255) == 0 ? x & 0x80000000u : x;
    };
    uint32_t r = bitsOf(floatOf(daz(l)) + floatOf(daz(v)));
    if (((r >> 23) & 255) == 255 && (r & 0x7FFFFF) != 0)
      return 0x7FC00000u;
    return daz(r);
  }
  if (out == 'b') {
    if ((l == 0x7F80 && v == 0xFF80) || (l == 0xFF80 && v == 0x7F80))
      return 0x7FC0;
    auto value = [](uint32_t h, bool inL1) {
      int sign = h >> 15;
      uint32_t e = (h >> 7) & 255, f = h & 127;
      double magnitude;
      if (e == 0)
        magnitude = 0;
      else if (e == 255 && f != 0)
        magnitude = inL1 ? 1.7976931348623157e308
                         : std::ldexp(1.0 + f / 128.0, 128);
      else if (e == 255)
        magnitude = HUGE_VAL;
      else
        magnitude = std::ldexp(1.0 + f / 128.0, int(e) - 127);
      return sign ? -magnitude : magnitude;
    };
    double s = value(l, true) + value(v, false);
    uint32_t sign = std::signbit(s) ? 0x8000 : 0;
    double a = std::fabs(s);
    if (std::isinf(a))
      return sign | 0x7F80;
    if (a == 0)
      return sign;
    int e2;
    double m = std::frexp(a, &e2); // a = m 2^e2, m in [0.5, 1)
    int64_t e = e2 - 1 + 127;
    if (e <= 0)
      return sign;
    if (e >= 255)
      return sign | 0x7F80;
    // 1.f with 52 fraction bits, rounded to 7 by halves to even.
    uint64_t f52 = uint64_t(std::ldexp(m * 2 - 1, 52));
    uint64_t q = f52 >> 45, rest = f52 & ((uint64_t(1) << 45) - 1);
    uint64_t half = uint64_t(1) << 44;
    if (rest > half || (rest == half && (q & 1)))
      ++q;
    return sign | uint32_t((e << 7) + q);
  }
  auto value = [](uint32_t h) {
    int sign = h >> 15;
    uint32_t e = (h >> 10) & 31, f = h & 1023;
    float magnitude = e == 0 ? 0.0f : std::ldexp(1.0f + f / 1024.0f, int(e) - 15);
    return sign ? -magnitude : magnitude;
  };
  float s = value(l) + value(v);
  uint32_t sign = std::signbit(s) ? 0x8000 : 0;
  if (s == 0)
    return sign | (((l >> 10) & 31) >= 30 ? 0x7FFF : 0);
  int e2;
  float m = std::frexp(std::fabs(s), &e2);
  int64_t e = e2 - 1 + 15;
  if (e < 0)
    return sign | 0x7FFF;
  if (e == 0)
    return sign;
  uint32_t f23 = uint32_t(std::ldexp(m * 2 - 1, 23));
  uint32_t q = f23 >> 13, rest = f23 & 8191;
  if (rest > 4096 || (rest == 4096 && (q & 1)))
    ++q;
  uint32_t packed = uint32_t(e << 10) + q;
  return sign | (packed < 0x8000 ? packed : 0x7FFF);
}

} // namespace birsim::test::plaintensix

#endif // BIRSIM_TEST_UNIT_CORE_PLAINTENSIX_H
