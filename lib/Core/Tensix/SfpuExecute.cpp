//===- SfpuExecute.cpp - executing SFPU words -----------------------------===//
//
// docs/Semantics.md section 9 [ttsim] src/tensix.cpp @56694c8: each
// instruction's effect, lane by lane over the enabled lanes, on a word
// checkWord and checkDestAccess passed.
//
//===----------------------------------------------------------------------===//
#include "SfpuWord.h"

#include <cstring>
#include <utility>

namespace birsim::core::sfpu {

namespace {

void setCc(State &s, unsigned lane, bool on) {
  if (on)
    s.cc |= 1u << lane;
  else
    s.cc &= ~(1u << lane);
}

template <typename Fn> void eachLane(uint32_t mask, Fn fn) {
  for (; mask; mask &= mask - 1)
    fn(unsigned(__builtin_ctz(mask)));
}

} // namespace

uint32_t storedCell(int destKind, uint32_t element) {
  return destKind == int(TensixDest::fp32)   ? encodeFp32(element)
         : destKind == int(TensixDest::bf16) ? encodeBf16(element)
                                             : encodeFp16(element);
}
uint32_t elementOfCell(int destKind, uint32_t cell) {
  return destKind == int(TensixDest::fp32)   ? decodeFp32(cell)
         : destKind == int(TensixDest::bf16) ? decodeBf16(cell)
                                             : decodeFp16(cell);
}

State::State() {
  std::memset(lreg, 0, sizeof(lreg));
  for (unsigned lane = 0; lane < 32; ++lane) {
    lreg[8][lane] = 0x3F56594B;
    lreg[10][lane] = 0x3F800000;
    lreg[11][lane] = 0xBF800000;
    lreg[12][lane] = 0x3B000000;
    lreg[13][lane] = 0xBF2CC4C7;
    lreg[14][lane] = 0xBEB08FF9;
    lreg[15][lane] = lane << 1;
  }
}

bool execute(int arch, uint32_t word, State &s, Group &g, std::string &error) {
  const bool bh = arch == int(TensixArch::blackhole);
  const Fields f(word);
  const unsigned opcode = f.opcode(), m1 = f.mod1(), d = f.dest(), c = f.c();
  uint32_t(&L)[16][32] = s.lreg;
  const uint32_t mask = s.enabledLanes();
  auto fail = [&](std::string message) {
    error = std::move(message);
    return false;
  };
  // Step 1: a template store needs every lane and then does nothing here
  // (D85).
  if (isTemplateStore(arch, opcode) && d >= 12) {
    if (mask != 0xFFFFFFFF)
      return fail(format("inst=0x%llx: not all lanes enabled: mask=0x%llx",
                         word, mask));
    return true;
  }
  // Step 2: TEN-2932.
  if ((s.laneConfig & 4) && opcode >= 0x73 && opcode <= 0x99 &&
      opcode != 0x91 && opcode != 0x92 && opcode != 0x93) {
    unsigned target = opcode == 0x73 ? f.lregInd() : d;
    if (target >= 4 && target < 8)
      return fail(format("TEN-2932: SFPU result write to LReg[%lld] is "
                         "corrupted when ENABLE_DEST_INDEX is set "
                         "(opcode=0x%llx)",
                         target, opcode));
  }
  auto fma = [arch](uint32_t x, uint32_t y, uint32_t z) {
    return sfpuFma(arch, x, y, z);
  };
  switch (opcode) {
  case 0x70: { // SFPLOAD
    unsigned mode = f.mod0() ? f.mod0() : unsigned(g.defaultMode);
    unsigned r = f.lregInd();
    eachLane(mask, [&](unsigned lane) {
      uint32_t cell = g.cell[lane], v = 0;
      switch (mode) {
      case 1: {
        uint32_t e = cell & 31;
        v = (cell >> 15) << 31 | (e ? e + 112 : 0) << 23 |
            (cell >> 5 & 1023) << 13;
        break;
      }
      case 2:
        v = decodeBf16(cell) << 16;
        break;
      case 3:
      case 4:
        v = decodeFp32(cell);
        break;
      case 6:
        v = cell;
        break;
      case 12:
        v = decodeFp32(cell);
        if (!bh && (v & 0x80000000))
          v = uint32_t(-int32_t(v & 0x7FFFFFFF));
        break;
      case 14:
        v = (L[r][lane] & 0xFFFF0000) | cell;
        break;
      case 15:
        v = cell << 16 | (L[r][lane] & 0xFFFF);
        break;
      }
      if (r < 8)
        L[r][lane] = v;
    });
    return true;
  }
  case 0x72: { // SFPSTORE
    unsigned mode = f.mod0() ? f.mod0() : unsigned(g.defaultMode);
    unsigned r = f.lregInd();
    eachLane(mask, [&](unsigned lane) {
      uint32_t v = L[r][lane];
      uint32_t &cell = g.cell[lane];
      switch (mode) {
      case 1:
        cell = encodeFp16(storeFp16(v));
        break;
      case 2:
        cell = encodeBf16(flushDenormal(v) >> 16);
        break;
      case 3:
        cell = encodeFp32(flushDenormal(v));
        break;
      case 4:
        cell = encodeFp32(v);
        break;
      case 6:
      case 14:
        cell = v & 0xFFFF;
        break;
      case 7:
        cell = v;
        break;
      case 9:
        cell = v << 16 | v >> 16;
        break;
      case 12:
        if (!bh && (v & 0x80000000))
          v = 0x80000000 | (0u - v); // 0x80000000 stays
        cell = encodeFp32(v);
        break;
      case 15:
        cell = v >> 16;
        break;
      }
    });
    return true;
  }
  case 0x71: { // SFPLOADI
    unsigned imm = f.imm16(), r = f.lregInd(), mode = f.mod0();
    uint32_t value = 0;
    switch (mode) {
    case 0:
    case 8:
      value = imm << 16;
      break;
    case 1:
      value = (imm & 0x8000) << 16 | ((imm & 0x7FFF) + (112 << 10)) << 13;
      break;
    case 2:
    case 10:
      value = imm;
      break;
    case 4:
      value = uint32_t(int32_t(int16_t(uint16_t(imm))));
      break;
    }
    eachLane(mask, [&](unsigned lane) {
      if (mode == 8)
        L[r][lane] = (L[r][lane] & 0xFFFF) | value;
      else if (mode == 10)
        L[r][lane] = (L[r][lane] & 0xFFFF0000) | value;
      else
        L[r][lane] = value;
    });
    return true;
  }
  case 0x73: // SFPLUT
    eachLane(mask, [&](unsigned lane) {
      uint32_t x = L[3][lane], b = x & 0x7FFFFFFF;
      uint32_t k = b < 0x3F800000 ? L[0][lane]
                   : b < 0x40000000 ? L[1][lane]
                                    : L[2][lane];
      uint32_t r = fma(lutByte(k >> 8 & 0xFF), b, lutByte(k & 0xFF));
      L[f.lregInd()][lane] = (r & 0x7FFFFFFF) | (x & 0x80000000);
    });
    return true;
  case 0x74: // SFPMULI
    eachLane(mask, [&](unsigned lane) {
      L[d][lane] = fma(f.imm16Math() << 16, L[d][lane], 0);
    });
    return true;
  case 0x75: // SFPADDI
    eachLane(mask, [&](unsigned lane) {
      L[d][lane] = fma(f.imm16Math() << 16, 0x3F800000, L[d][lane]);
    });
    return true;
  case 0x76: { // SFPDIVP2
    uint32_t k = f.imm12() & 0xFF;
    eachLane(mask, [&](unsigned lane) {
      uint32_t x = L[c][lane], e = x >> 23 & 0xFF;
      if (!(m1 & 1))
        e = k;
      else if (e != 255)
        e = (e + k) & 0xFF;
      L[d][lane] = e << 23 | (x & 0x807FFFFF);
    });
    return true;
  }
  case 0x77: // SFPEXEXP
    eachLane(mask, [&](unsigned lane) {
      int32_t t = int32_t(L[c][lane] >> 23 & 0xFF) - ((m1 & 1) ? 0 : 127);
      L[d][lane] = uint32_t(t);
      if (m1 == 10)
        setCc(s, lane, t >= 0);
      else if (m1 == 2)
        setCc(s, lane, t < 0);
    });
    return true;
  case 0x78: // SFPEXMAN
    eachLane(mask, [&](unsigned lane) {
      L[d][lane] = (L[c][lane] & 0x7FFFFF) | (m1 ? 0 : 0x800000);
    });
    return true;
  case 0x79: { // SFPIADD
    uint32_t imm = uint32_t(int32_t(f.imm12() << 20) >> 20);
    eachLane(mask, [&](unsigned lane) {
      uint32_t t = L[c][lane];
      if (m1 & 1)
        t += imm;
      else if (m1 & 2)
        t -= L[d][lane];
      else
        t += L[d][lane];
      if (m1 & 8)
        setCc(s, lane, !(t & 0x80000000));
      else if (!(m1 & 4))
        setCc(s, lane, t & 0x80000000);
      L[d][lane] = t;
    });
    return true;
  }
  case 0x7A: { // SFPSHFT
    int32_t imm = int32_t(f.imm12() << 20) >> 20;
    eachLane(mask, [&](unsigned lane) {
      uint32_t x = bh && (m1 & 4) ? L[c][lane] : L[d][lane];
      int32_t amount = (m1 & 1) ? imm : int32_t(L[c][lane]);
      uint32_t by = (amount >= 0 ? uint32_t(amount) : 0u - uint32_t(amount)) &
                    31;
      if (amount >= 0)
        x <<= by;
      else if (bh && (m1 & 2))
        x = uint32_t(int32_t(x) >> by);
      else
        x >>= by;
      L[d][lane] = x;
    });
    return true;
  }
  case 0x7B: // SFPSETCC
    if (!s.ccEnabled)
      return fail(format("cc_en=%lld", 0));
    eachLane(s.cc, [&](unsigned lane) {
      int32_t t = int32_t(L[c][lane]);
      setCc(s, lane,
            m1 == 0   ? t < 0
            : m1 == 2 ? t != 0
            : m1 == 4 ? t >= 0
                      : t == 0);
    });
    return true;
  case 0x7C: // SFPMOV
    eachLane(m1 == 2 ? 0xFFFFFFFF : mask, [&](unsigned lane) {
      if (m1 == 8) {
        L[d][lane] = s.prng[lane];
        s.prng[lane] = stepPrng(s.prng[lane]);
      } else {
        L[d][lane] = L[c][lane] ^ ((m1 & 1) ? 0x80000000 : 0);
      }
    });
    return true;
  case 0x7D: // SFPABS
    eachLane(mask, [&](unsigned lane) {
      uint32_t x = L[c][lane];
      if (m1 & 1)
        L[d][lane] = x <= 0xFF800000 ? x & 0x7FFFFFFF : x;
      else
        L[d][lane] = x >= 0x80000000 ? 0u - x : x;
    });
    return true;
  case 0x7E:   // SFPAND
  case 0x7F: { // SFPOR
    unsigned first = bh && m1 == 1 ? f.imm12() : d;
    eachLane(mask, [&](unsigned lane) {
      L[d][lane] = opcode == 0x7E ? L[first][lane] & L[c][lane]
                                  : L[first][lane] | L[c][lane];
    });
    return true;
  }
  case 0x80: // SFPNOT
    eachLane(mask, [&](unsigned lane) { L[d][lane] = ~L[c][lane]; });
    return true;
  case 0x8D: // SFPXOR
    eachLane(mask, [&](unsigned lane) { L[d][lane] ^= L[c][lane]; });
    return true;
  case 0x81: // SFPLZ
    eachLane(mask, [&](unsigned lane) {
      uint32_t t = L[c][lane] & ((m1 & 4) ? 0x7FFFFFFF : 0xFFFFFFFF);
      L[d][lane] = t ? uint32_t(__builtin_clz(t)) : 32;
      if (m1 & 2)
        setCc(s, lane, t != 0);
    });
    return true;
  case 0x82: // SFPSETEXP
    eachLane(mask, [&](unsigned lane) {
      uint32_t e = m1 == 1   ? f.imm12()
                   : m1 == 2 ? L[d][lane] >> 23 & 0xFF
                             : L[d][lane] & 0xFF;
      L[d][lane] = (L[c][lane] & 0x807FFFFF) | e << 23;
    });
    return true;
  case 0x83: // SFPSETMAN (imm12 is 0: mode 1 clears the fraction)
    eachLane(mask, [&](unsigned lane) {
      L[d][lane] = (L[c][lane] & 0xFF800000) |
                   ((m1 & 1) ? 0 : L[d][lane] & 0x7FFFFF);
    });
    return true;
  case 0x84: // SFPMAD
    eachLane(mask, [&](unsigned lane) {
      uint32_t x = L[f.a()][lane], z = L[c][lane];
      if (bh && (m1 & 1))
        x ^= 0x80000000;
      if (bh && (m1 & 2))
        z ^= 0x80000000;
      L[d][lane] = fma(x, L[f.b()][lane], z);
    });
    return true;
  case 0x85: { // SFPADD: 1.0 (or -1.0) times the other register plus c
    unsigned other = f.a() == 10 ? f.b() : f.a();
    uint32_t one = bh && (m1 & 1) ? 0xBF800000 : 0x3F800000;
    eachLane(mask, [&](unsigned lane) {
      uint32_t z = L[c][lane] ^ (bh && (m1 & 2) ? 0x80000000 : 0);
      L[d][lane] = fma(one, L[other][lane], z);
    });
    return true;
  }
  case 0x86: // SFPMUL
    eachLane(mask, [&](unsigned lane) {
      uint32_t x = L[f.a()][lane] ^ (bh && (m1 & 1) ? 0x80000000 : 0);
      L[d][lane] = fma(x, L[f.b()][lane], 0);
    });
    return true;
  case 0x87: // SFPPUSHC
    if (s.depth >= 8)
      return fail("CC stack overflow");
    s.stack[s.depth++] = {s.ccEnabled, s.cc};
    return true;
  case 0x88: // SFPPOPC
    if (!s.depth)
      return fail("CC stack underflow");
    --s.depth;
    s.ccEnabled = s.stack[s.depth].enabled;
    s.cc = s.stack[s.depth].cc;
    return true;
  case 0x89: // SFPSETSGN
    eachLane(mask, [&](unsigned lane) {
      uint32_t sign =
          (m1 & 1) ? f.imm12() << 31 : L[d][lane] & 0x80000000;
      L[d][lane] = (L[c][lane] & 0x7FFFFFFF) | sign;
    });
    return true;
  case 0x8A: // SFPENCC
    if (m1 == 0) {
      s.cc = 0xFFFFFFFF;
    } else {
      s.cc = (f.imm12() >> 1 & 1) ? 0xFFFFFFFF : 0;
      s.ccEnabled = f.imm12() & 1;
    }
    return true;
  case 0x8B: // SFPCOMPC
    if (!s.ccEnabled)
      return fail(format("cc_en=%lld", 0));
    if (s.depth) {
      const State::Saved &top = s.stack[s.depth - 1];
      if (!top.enabled)
        return fail(format("cc_en_stack[top]=%lld", 0));
      s.cc = top.cc & ~s.cc;
    } else {
      s.cc = ~s.cc;
    }
    return true;
  case 0x8C: // SFPTRANSP: 4x4 transposes per half and column
    for (unsigned base = 0; base < 8; base += 4)
      for (unsigned col = 0; col < 8; ++col)
        for (unsigned i = 0; i < 4; ++i)
          for (unsigned j = 0; j < i; ++j) {
            uint32_t ij = L[base + i][j * 8 + col];
            uint32_t ji = L[base + j][i * 8 + col];
            if (mask >> (j * 8 + col) & 1)
              L[base + i][j * 8 + col] = ji;
            if (mask >> (i * 8 + col) & 1)
              L[base + j][i * 8 + col] = ij;
          }
    return true;
  case 0x8E: // SFP_STOCH_RND
    eachLane(mask, [&](unsigned lane) {
      s.prng[lane] = stepPrng(s.prng[lane]);
      L[d][lane] = roundStochRnd(m1, L[c][lane]);
    });
    return true;
  case 0x8F: // SFPNOP
    return true;
  case 0x90: // SFPCAST
    eachLane(mask, [&](unsigned lane) {
      uint32_t x = L[c][lane];
      if (bh && m1 == 3) {
        uint32_t sign = x & 0x80000000;
        L[d][lane] = sign | (sign ? 0u - x : x);
      } else {
        L[d][lane] = castInt32(x);
      }
    });
    return true;
  case 0x91: { // SFPCONFIG
    unsigned to = d;
    if (!m1)
      for (unsigned lane = 1; lane < 32; ++lane)
        if (L[0][lane] != L[0][0])
          return fail(format("instr_mod1=0: l_regs[0]: lane[%lld] mismatch "
                             "with lane[0]",
                             lane));
    if (mask != 0xFFFFFFFF)
      return fail(format("not all lanes enabled: mask=0x%llx", mask));
    uint32_t value = L[0][0];
    if (to >= 11 && to <= 14) {
      uint32_t written = m1 ? 0xBF800000 : value;
      for (unsigned lane = 0; lane < 32; ++lane)
        L[to][lane] = written;
    } else if (to == 15) {
      uint32_t config = m1 ? f.imm16Math() : value;
      if (config & ~0x104u)
        return fail(format("lane_config=0x%llx", config));
      s.laneConfig = config;
    }
    // 0-8: SFPLOADMACRO's templates, sequences and control: checked, not
    // kept (D85).
    return true;
  }
  case 0x92: { // SFPSWAP
    uint32_t minLanes = m1 == 2   ? 0x0000FFFF
                        : m1 == 3 ? 0x00FF00FF
                        : m1 == 9 ? 0
                                  : 0xFFFFFFFF;
    const bool indexBank = s.laneConfig & 4;
    if (indexBank && c >= 4)
      return fail(format("lreg_c=%lld", c));
    if (indexBank && d >= 4)
      return fail(format("lreg_dest=%lld", d));
    eachLane(mask, [&](unsigned lane) {
      uint32_t x = L[c][lane], y = L[d][lane];
      bool swap = true;
      if (m1) {
        swap = (minLanes >> lane & 1) ? orderKey(x) < orderKey(y)
                                      : orderKey(x) >= orderKey(y);
        if (s.laneConfig & 0x100)
          swap = !swap;
      }
      if (!swap)
        return;
      if (indexBank) {
        L[c][lane] = y;
        L[d][lane] = x;
        std::swap(L[4 + c][lane], L[4 + d][lane]);
      } else {
        if (c < 8)
          L[c][lane] = y;
        if (d < 8)
          L[d][lane] = x;
      }
    });
    return true;
  }
  case 0x94: { // SFPSHFT2
    if (m1 == 5) {
      unsigned from = f.imm12();
      eachLane(mask, [&](unsigned lane) {
        int32_t amount = int32_t(L[c][lane]);
        uint32_t x = L[from][lane];
        L[d][lane] = amount >= 0 ? x << (amount & 31)
                                 : x >> ((0u - uint32_t(amount)) & 31);
      });
      return true;
    }
    uint32_t before[32];
    std::memcpy(before, L[c], sizeof(before));
    eachLane(mask, [&](unsigned lane) {
      L[d][lane] = (lane & 7) ? before[lane - 1]
                   : m1 == 3  ? before[lane + 7]
                              : 0;
    });
    return true;
  }
  case 0x95: // SFPLUTFP32
    eachLane(mask, [&](unsigned lane) {
      uint32_t b = L[3][lane] & 0x7FFFFFFF;
      unsigned i = b < 0x3F800000 ? 0 : b < 0x40000000 ? 1 : 2;
      unsigned half = b < 0x3F000000   ? 0
                      : b < 0x3F800000 ? 16
                      : b < 0x3FC00000 ? 0
                      : b < 0x40000000 ? 16
                      : b < 0x40400000 ? 0
                                       : 16;
      L[d][lane] = fma(lutHalf(L[i][lane] >> half & 0xFFFF), b,
                       lutHalf(L[4 + i][lane] >> half & 0xFFFF));
    });
    return true;
  case 0x96:   // SFPLE
  case 0x97: { // SFPGT
    eachLane(mask, [&](unsigned lane) {
      int32_t x = orderKey(L[d][lane]), y = orderKey(L[c][lane]);
      bool test = opcode == 0x96 ? x <= y : x > y;
      if (m1 == 1)
        setCc(s, lane, test);
      else
        L[d][lane] = test ? 0xFFFFFFFF : 0;
    });
    return true;
  }
  case 0x98: // SFPMUL24
    eachLane(mask, [&](unsigned lane) {
      uint32_t x = L[f.a()][lane], y = L[f.b()][lane];
      L[d][lane] = (m1 & 1) ? uint32_t((uint64_t(x & 0x7FFFFF) *
                                        (y & 0x7FFFFF)) >> 23)
                            : (x * y) & 0x7FFFFF;
    });
    return true;
  case 0x99: // SFPARECIP
    eachLane(mask, [&](unsigned lane) {
      uint32_t x = L[c][lane];
      L[d][lane] = (x & 0x80000000) | approximateReciprocal(x & 0x7FFFFFFF);
    });
    return true;
  }
  return fail(format("opcode=0x%llx", opcode));
}

} // namespace birsim::core::sfpu
