//===- PlainSfpu.h - a deliberately plain Tensix SFPU -------------*- C++ -*-===//
//
// docs/Semantics.md section 9 ("The Tensix SFPU") and docs/Decisions.md
// D80-D89 written out one lane at a time, from the documentation only (not
// from ttsim, tt-metal or lib/): the second implementation the core's SFPU
// is tested against. Clarity over speed.
//
//   PlainSfpuFma.h     the FMA models, Dest's storage encoding, value helpers
//   PlainSfpuDecode.h  State, the instruction table, decode() (parse-time checks)
//   PlainSfpu.h        execute() (run-time checks and semantics) and run()
//
// Single instructions: `State s(kind); Insn in; decode(arch, "SFPMAD 1, 2, 3,
// 0, 0", kind, &in, &err); execute(arch, in, s, &err);` with s.dest[] the
// current group's Dest cells (ttsim's storage encoding, elementToCells).
// Whole programs: run() (issue 65 item 2's birsim_tensix_sfpu_run).
//
//===----------------------------------------------------------------------===//
#ifndef BIRSIM_TEST_UNIT_CORE_PLAINSFPU_H
#define BIRSIM_TEST_UNIT_CORE_PLAINSFPU_H

#include "PlainSfpuDecode.h"

namespace birsim::test::plainsfpu {

/// SFPLOAD's value for one lane ("SFPLOAD"), `old` being L[lreg_ind].
inline uint32_t loadValue(int arch, int mode, uint32_t cells, uint32_t old) {
  uint32_t c16 = cells & 0xFFFF;
  switch (mode) {
  case 1: {
    uint32_t h = decodeFp16Cell(c16);
    uint32_t s = h >> 15, e = (h >> 10) & 0x1F, f = h & 0x3FF;
    return (s << 31) | ((e == 0 ? 0 : e + 112) << 23) | (f << 13);
  }
  case 2: return decodeBf16Cell(c16) << 16;
  case 3:
  case 4: return decode32(cells);
  case 6: return c16;
  case 12: {
    uint32_t w = decode32(cells);
    if (arch == kBlackhole || (w >> 31) == 0)
      return w;
    return 0u - (w & 0x7FFFFFFFu);
  }
  case 14: return (old & 0xFFFF0000u) | c16;
  case 15: return (c16 << 16) | (old & 0xFFFF);
  default: return 0; // refused at decode
  }
}

inline uint32_t flushDenormal(uint32_t v) {
  return expOf(v) == 0 ? (v & 0x80000000u) : v;
}

/// SFPSTORE's new cells for one lane ("SFPSTORE").
inline uint32_t storeCells(int arch, int mode, uint32_t v) {
  switch (mode) {
  case 1: {
    uint32_t s = v >> 31;
    int E = (int)expOf(v) - 112;
    uint32_t h;
    if (E <= 0)
      h = s << 15;
    else if (E > 31)
      h = (s << 15) | 0x7FFF;
    else
      h = (s << 15) | ((uint32_t)E << 10) | (fracOf(v) >> 13);
    return encodeFp16Cell(h);
  }
  case 2: return encodeBf16Cell(flushDenormal(v) >> 16);
  case 3: return encode32(flushDenormal(v));
  case 4: return encode32(v);
  case 6:
  case 14: return v & 0xFFFF;
  case 7: return v; // storage bits as they are
  case 9: return (v << 16) | (v >> 16);
  case 12:
    if (arch == kBlackhole || (v >> 31) == 0)
      return encode32(v);
    return encode32(0x80000000u | (0u - v));
  case 15: return v >> 16;
  default: return 0;
  }
}

inline uint32_t shiftBy(uint32_t value, int32_t amount, bool arithmetic) {
  if (amount >= 0)
    return value << (amount % 32);
  uint32_t by = (uint32_t)(-(int64_t)amount) % 32;
  if (arithmetic)
    return (uint32_t)((int32_t)value >> by);
  return value >> by;
}

inline uint32_t sext12(uint32_t imm) {
  return (imm & 0x800) ? (imm | 0xFFFFF000u) : imm;
}

inline uint32_t withExponent(uint32_t s, uint32_t e) {
  return (s & 0x807FFFFFu) | ((e & 0xFF) << 23);
}

/// Runs one decoded instruction on `s`. Returns 0, or -1 with `error` set to
/// the run-time refusal (D88), the state then unspecified.
inline int execute(int arch, const Insn &in, State &s, std::string *error) {
  const bool wh = arch == kWormhole;
  const uint32_t op = in.spec->opcode;
  const uint32_t en = s.enabled();
  const uint32_t m = in.mod1;
  auto refuse = [&](const std::string &why) {
    *error = std::string(in.spec->name) + ": " + why;
    return -1;
  };

  // Step 1: a template is stored, not run (D85).
  if (in.isTemplate) {
    if (en != 0xFFFFFFFFu)
      return refuse(format("inst=0x%x: not all lanes enabled: mask=0x%x", in.word, en));
    return 0;
  }
  // Step 2: TEN-2932.
  if ((s.laneConfig & 4) && op >= 0x73 && op != 0x91 && op != 0x92 && op != 0x93) {
    uint32_t d = op == 0x73 ? ((in.word >> 20) & 0xF) : ((in.word >> 4) & 0xF);
    if (d >= 4 && d <= 7)
      return refuse(format("TEN-2932: SFPU result write to LReg[%u] is corrupted when "
                           "ENABLE_DEST_INDEX is set (opcode=0x%x)", d, op));
  }

  uint32_t(*L)[32] = s.lreg;
  // `each(f)`: for every enabled lane, L[dst] = f(lane) when dst < 8.
  auto writeEnabled = [&](uint32_t dst, auto f) {
    for (int lane = 0; lane < 32; ++lane) {
      if (!State::on(en, lane))
        continue;
      uint32_t v = f(lane);
      if (dst < 8)
        L[dst][lane] = v;
    }
  };
  // DOC-AMBIGUOUS: "Instructions that set cc bits ... write them in their
  // enabled lanes only" with enabled lanes = all 32 when cc_en is false: so
  // with cc_en false they rewrite every lane's cc bit (literal reading).
  auto setCc = [&](int lane, bool bit) {
    if (bit)
      s.cc |= 1u << lane;
    else
      s.cc &= ~(1u << lane);
  };

  switch (op) {
  case 0x70: // SFPLOAD
    writeEnabled(in.lregInd, [&](int lane) {
      return loadValue(arch, in.mode, s.dest[lane], L[in.lregInd][lane]);
    });
    return 0;
  case 0x72: // SFPSTORE
    for (int lane = 0; lane < 32; ++lane)
      if (State::on(en, lane))
        s.dest[lane] = storeCells(arch, in.mode, L[in.lregInd][lane]);
    return 0;
  case 0x71: { // SFPLOADI
    uint32_t imm = in.imm;
    writeEnabled(in.lregInd, [&](int lane) -> uint32_t {
      uint32_t old = L[in.lregInd][lane];
      switch (in.mod0) {
      case 0: return imm << 16;
      case 1: return ((imm & 0x8000) << 16) | (((imm & 0x7FFF) + (112u << 10)) << 13);
      case 2: return imm;
      case 4: return (imm & 0x8000) ? (imm | 0xFFFF0000u) : imm;
      case 8: return (imm << 16) | (old & 0xFFFF);
      default: return (old & 0xFFFF0000u) | imm; // 10
      }
    });
    return 0;
  }
  case 0x73: // SFPLUT
    writeEnabled(in.lregInd, [&](int lane) {
      uint32_t b = L[3][lane] & 0x7FFFFFFFu;
      uint32_t k = b < 0x3F800000u ? L[0][lane] : b < 0x40000000u ? L[1][lane] : L[2][lane];
      uint32_t d = fma(arch, lut8((k >> 8) & 0xFF), b, lut8(k & 0xFF));
      return (d & 0x7FFFFFFFu) | (L[3][lane] & 0x80000000u);
    });
    return 0;
  case 0x74: // SFPMULI
    writeEnabled(in.dst, [&](int lane) { return fma(arch, in.imm << 16, L[in.dst][lane], 0); });
    return 0;
  case 0x75: // SFPADDI
    writeEnabled(in.dst, [&](int lane) {
      return fma(arch, in.imm << 16, 0x3F800000u, L[in.dst][lane]);
    });
    return 0;
  case 0x76: // SFPDIVP2
    writeEnabled(in.dst, [&](int lane) {
      uint32_t x = L[in.c][lane], e = expOf(x), k = in.imm & 0xFF;
      if (m == 1)
        return e == 255 ? x : withExponent(x, (e + k) % 256);
      return withExponent(x, k);
    });
    return 0;
  case 0x77: // SFPEXEXP
    for (int lane = 0; lane < 32; ++lane) {
      if (!State::on(en, lane))
        continue;
      int32_t t = (int32_t)expOf(L[in.c][lane]) - ((m & 1) ? 0 : 127);
      if (m == 2)
        setCc(lane, t < 0);
      if (m == 10)
        setCc(lane, t >= 0);
      L[in.dst][lane] = (uint32_t)t;
    }
    return 0;
  case 0x78: // SFPEXMAN
    writeEnabled(in.dst, [&](int lane) {
      return fracOf(L[in.c][lane]) | (m == 0 ? (1u << 23) : 0u);
    });
    return 0;
  case 0x79: // SFPIADD
    for (int lane = 0; lane < 32; ++lane) {
      if (!State::on(en, lane))
        continue;
      uint32_t c = L[in.c][lane], d = L[in.dst][lane], t;
      // DOC-AMBIGUOUS: imm12_math is not said to be checked when bit 0 is
      // clear (unlike SFPSHFT); it is accepted and ignored there.
      if (m & 1)
        t = c + sext12(in.imm);
      else if (m & 2)
        t = c - d;
      else
        t = c + d;
      if (m & 8)
        setCc(lane, (int32_t)t >= 0);
      else if ((m & 4) == 0)
        setCc(lane, (int32_t)t < 0);
      L[in.dst][lane] = t;
    }
    return 0;
  case 0x7A: // SFPSHFT
    writeEnabled(in.dst, [&](int lane) {
      uint32_t value = (!wh && (m & 4)) ? L[in.c][lane] : L[in.dst][lane];
      int32_t amount = (m & 1) ? (int32_t)sext12(in.imm) : (int32_t)L[in.c][lane];
      return shiftBy(value, amount, !wh && (m & 2));
    });
    return 0;
  case 0x7B: // SFPSETCC
    if (!s.ccEn)
      return refuse(format("cc_en=%d", (int)s.ccEn));
    for (int lane = 0; lane < 32; ++lane) {
      if (!State::on(s.cc, lane))
        continue;
      int32_t t = (int32_t)L[in.c][lane];
      bool bit = m == 0 ? t < 0 : m == 2 ? t != 0 : m == 4 ? t >= 0 : t == 0;
      setCc(lane, bit);
    }
    return 0;
  case 0x7C: // SFPMOV
    for (int lane = 0; lane < 32; ++lane) {
      if (m != 2 && !State::on(en, lane))
        continue;
      if (m == 8) {
        L[in.dst][lane] = s.prng[lane];
        s.prng[lane] = prngStep(s.prng[lane]);
      } else {
        L[in.dst][lane] = L[in.c][lane] ^ (m == 1 ? 0x80000000u : 0u);
      }
    }
    return 0;
  case 0x7D: // SFPABS
    writeEnabled(in.dst, [&](int lane) {
      uint32_t x = L[in.c][lane];
      if (m == 1)
        return x <= 0xFF800000u ? (x & 0x7FFFFFFFu) : x;
      return (x >> 31) ? 0u - x : x;
    });
    return 0;
  case 0x7E: // SFPAND
  case 0x7F: // SFPOR
    writeEnabled(in.dst, [&](int lane) {
      uint32_t first = m == 1 ? L[in.imm][lane] : L[in.dst][lane];
      return op == 0x7E ? (first & L[in.c][lane]) : (first | L[in.c][lane]);
    });
    return 0;
  case 0x80: // SFPNOT
    writeEnabled(in.dst, [&](int lane) { return ~L[in.c][lane]; });
    return 0;
  case 0x8D: // SFPXOR
    writeEnabled(in.dst, [&](int lane) { return L[in.dst][lane] ^ L[in.c][lane]; });
    return 0;
  case 0x81: // SFPLZ
    for (int lane = 0; lane < 32; ++lane) {
      if (!State::on(en, lane))
        continue;
      uint32_t t = L[in.c][lane] & ((m & 4) ? 0x7FFFFFFFu : 0xFFFFFFFFu);
      if (m & 2)
        setCc(lane, t != 0);
      L[in.dst][lane] = (uint32_t)countLeadingZeros32(t);
    }
    return 0;
  case 0x82: // SFPSETEXP
    writeEnabled(in.dst, [&](int lane) {
      uint32_t d = L[in.dst][lane];
      uint32_t e = m == 1 ? in.imm : m == 2 ? expOf(d) : (d & 0xFF);
      return withExponent(L[in.c][lane], e);
    });
    return 0;
  case 0x83: // SFPSETMAN
    writeEnabled(in.dst, [&](int lane) {
      uint32_t x = L[in.c][lane] & 0xFF800000u;
      return m == 1 ? x : (x | (L[in.dst][lane] & 0x7FFFFFu));
    });
    return 0;
  case 0x89: // SFPSETSGN
    writeEnabled(in.dst, [&](int lane) {
      uint32_t sign = m == 1 ? (in.imm << 31) : (L[in.dst][lane] & 0x80000000u);
      return (L[in.c][lane] & 0x7FFFFFFFu) | sign;
    });
    return 0;
  case 0x84: // SFPMAD
    writeEnabled(in.dst, [&](int lane) {
      uint32_t a = L[in.a][lane] ^ ((!wh && (m & 1)) ? 0x80000000u : 0u);
      uint32_t c = L[in.c][lane] ^ ((!wh && (m & 2)) ? 0x80000000u : 0u);
      return fma(arch, a, L[in.b][lane], c);
    });
    return 0;
  case 0x85: { // SFPADD
    uint32_t other = in.b == 10 ? in.a : in.b;
    if (in.a == 10 && in.b == 10)
      other = in.b;
    writeEnabled(in.dst, [&](int lane) {
      uint32_t one = (!wh && (m & 1)) ? 0xBF800000u : 0x3F800000u;
      uint32_t c = L[in.c][lane] ^ ((!wh && (m & 2)) ? 0x80000000u : 0u);
      return fma(arch, one, L[other][lane], c);
    });
    return 0;
  }
  case 0x86: // SFPMUL
    writeEnabled(in.dst, [&](int lane) {
      uint32_t a = L[in.a][lane] ^ ((!wh && (m & 1)) ? 0x80000000u : 0u);
      return fma(arch, a, L[in.b][lane], 0);
    });
    return 0;
  case 0x98: // SFPMUL24
    writeEnabled(in.dst, [&](int lane) -> uint32_t {
      uint64_t a = L[in.a][lane], b = L[in.b][lane];
      if (m == 0)
        return (uint32_t)(a * b) & 0x7FFFFFu;
      return (uint32_t)(((a & 0x7FFFFF) * (b & 0x7FFFFF)) >> 23);
    });
    return 0;
  case 0x87: // SFPPUSHC
    if (s.depth >= 8)
      return refuse("CC stack overflow");
    s.stack[s.depth].en = s.ccEn;
    s.stack[s.depth].cc = s.cc;
    s.depth += 1;
    return 0;
  case 0x88: // SFPPOPC
    if (s.depth == 0)
      return refuse("CC stack underflow");
    s.depth -= 1;
    s.ccEn = s.stack[s.depth].en;
    s.cc = s.stack[s.depth].cc;
    return 0;
  case 0x8A: // SFPENCC
    if (m == 0) {
      s.cc = 0xFFFFFFFFu;
    } else {
      s.cc = (in.imm & 2) ? 0xFFFFFFFFu : 0u;
      s.ccEn = (in.imm & 1) != 0;
    }
    return 0;
  case 0x8B: // SFPCOMPC
    if (!s.ccEn)
      return refuse(format("cc_en=%d", (int)s.ccEn));
    if (s.depth > 0 && !s.stack[s.depth - 1].en)
      return refuse(format("cc_en_stack[top]=%d", (int)s.stack[s.depth - 1].en));
    // DOC-AMBIGUOUS: SFPCOMPC is read as assigning the whole mask, not only
    // the enabled lanes (masked, it could never set a bit).
    s.cc = s.depth > 0 ? (s.stack[s.depth - 1].cc & ~s.cc) : ~s.cc;
    return 0;
  case 0x8C: { // SFPTRANSP
    for (int base = 0; base <= 4; base += 4)
      for (int c = 0; c < 8; ++c)
        for (int i = 0; i < 4; ++i)
          for (int j = 0; j < i; ++j) {
            int laneA = 8 * j + c, laneB = 8 * i + c;
            uint32_t va = L[base + i][laneA], vb = L[base + j][laneB];
            if (State::on(en, laneA))
              L[base + i][laneA] = vb;
            if (State::on(en, laneB))
              L[base + j][laneB] = va;
          }
    return 0;
  }
  case 0x8E: // SFP_STOCH_RND
    for (int lane = 0; lane < 32; ++lane) {
      if (!State::on(en, lane))
        continue;
      s.prng[lane] = prngStep(s.prng[lane]);
      L[in.dst][lane] = stochRound((int)m, L[in.c][lane]);
    }
    return 0;
  case 0x8F: // SFPNOP
    return 0;
  case 0x90: // SFPCAST
    writeEnabled(in.dst, [&](int lane) -> uint32_t {
      uint32_t x = L[in.c][lane];
      if (m == 0)
        return castSignMagnitudeToFloat(x);
      uint32_t sign = x & 0x80000000u; // mode 3
      return sign | (sign ? 0u - x : x);
    });
    return 0;
  case 0x91: { // SFPCONFIG
    uint32_t d = in.dst;
    if (m == 0)
      for (int lane = 1; lane < 32; ++lane)
        if (L[0][lane] != L[0][0])
          return refuse(format("instr_mod1=0: l_regs[0]: lane[%d] mismatch with lane[0]", lane));
    if (en != 0xFFFFFFFFu)
      return refuse(format("not all lanes enabled: mask=0x%x", en));
    uint32_t v = L[0][0];
    if (d >= 11 && d <= 14) {
      uint32_t value = m == 1 ? 0xBF800000u : v;
      for (int lane = 0; lane < 32; ++lane)
        L[d][lane] = value;
    } else if (d == 15) {
      uint32_t value = m == 1 ? in.imm : v;
      if ((value & ~0x104u) != 0)
        return refuse(format("lane_config=0x%x", value));
      s.laneConfig = value;
    }
    // 0-8: checked, nothing kept (D85).
    return 0;
  }
  case 0x92: { // SFPSWAP
    bool destIndex = (s.laneConfig & 4) != 0;
    // DOC-AMBIGUOUS: no message is documented for this check.
    if (destIndex && (in.c >= 4 || in.dst >= 4))
      return refuse(format("lreg_c=%u lreg_dest=%u with ENABLE_DEST_INDEX set", in.c, in.dst));
    bool invert = (s.laneConfig & 0x100) != 0;
    for (int lane = 0; lane < 32; ++lane) {
      if (!State::on(en, lane))
        continue;
      uint32_t c = L[in.c][lane], d = L[in.dst][lane];
      bool swap;
      if (m == 0) {
        // DOC-AMBIGUOUS: lane_config bit 8 is read as inverting only the
        // min/max modes' decision ("otherwise ... inverts that decision").
        swap = true;
      } else {
        bool wantsMin;
        if (m == 1)
          wantsMin = true;
        else if (m == 9)
          wantsMin = false;
        else if (m == 2)
          wantsMin = lane < 16;
        else // 3
          wantsMin = (lane / 8) % 2 == 0;
        swap = wantsMin ? orderKey(c) < orderKey(d) : orderKey(c) >= orderKey(d);
        if (invert)
          swap = !swap;
      }
      if (!swap)
        continue;
      if (in.c < 8)
        L[in.c][lane] = d;
      if (in.dst < 8)
        L[in.dst][lane] = c;
      if (destIndex) {
        uint32_t t = L[4 + in.c][lane];
        L[4 + in.c][lane] = L[4 + in.dst][lane];
        L[4 + in.dst][lane] = t;
      }
    }
    return 0;
  }
  case 0x94: { // SFPSHFT2
    uint32_t V[32];
    for (int lane = 0; lane < 32; ++lane)
      V[lane] = L[in.c][lane];
    writeEnabled(in.dst, [&](int lane) -> uint32_t {
      if (m == 5)
        return shiftBy(L[in.imm][lane], (int32_t)L[in.c][lane], false);
      if (lane % 8 != 0)
        return V[lane - 1];
      return m == 3 ? V[lane + 7] : 0u;
    });
    return 0;
  }
  case 0x95: // SFPLUTFP32
    writeEnabled(in.dst, [&](int lane) {
      uint32_t b = L[3][lane] & 0x7FFFFFFFu;
      int i = b < 0x3F800000u ? 0 : b < 0x40000000u ? 1 : 2;
      bool high;
      if (b < 0x3F000000u) high = false;
      else if (b < 0x3F800000u) high = true;
      else if (b < 0x3FC00000u) high = false;
      else if (b < 0x40000000u) high = true;
      else if (b < 0x40400000u) high = false;
      else high = true;
      uint32_t ka = L[0 + i][lane], kc = L[4 + i][lane];
      uint32_t A = lut16(high ? ka >> 16 : ka & 0xFFFF);
      uint32_t C = lut16(high ? kc >> 16 : kc & 0xFFFF);
      return fma(arch, A, b, C);
    });
    return 0;
  case 0x96: // SFPLE
  case 0x97: // SFPGT
    for (int lane = 0; lane < 32; ++lane) {
      if (!State::on(en, lane))
        continue;
      int32_t kd = orderKey(L[in.dst][lane]), kc = orderKey(L[in.c][lane]);
      bool test = op == 0x96 ? kd <= kc : kd > kc;
      if (m == 1)
        setCc(lane, test);
      else
        L[in.dst][lane] = test ? 0xFFFFFFFFu : 0u;
    }
    return 0;
  case 0x99: // SFPARECIP
    writeEnabled(in.dst, [&](int lane) { return arecip(L[in.c][lane]); });
    return 0;
  default:
    return refuse(format("opcode=0x%x", op));
  }
}

/// Convenience: decode then execute one line on `s` (its Dest kind).
inline int step(int arch, const std::string &text, State &s, std::string *error) {
  Insn in;
  if (decode(arch, text, s.destKind, &in, error) != 0)
    return -1;
  return execute(arch, in, s, error);
}

/// A parsed program: the init and body instructions.
struct Program {
  std::vector<Insn> init, body;
};

inline int parse(int arch, const std::string &text, int destKind, Program *program,
                 std::string *error) {
  // DOC-AMBIGUOUS: a text without any section header is taken as all body;
  // with headers, an instruction before the first one is refused, and each
  // header may appear once.
  bool hasHeader = false;
  {
    size_t pos = 0;
    while (pos <= text.size()) {
      size_t end = text.find('\n', pos);
      if (end == std::string::npos)
        end = text.size();
      std::string line = text.substr(pos, end - pos);
      line = line.substr(0, line.find('#'));
      std::string t;
      for (char ch : line)
        if (ch != ' ' && ch != '\t' && ch != '\r')
          t += ch;
      if (t == "init:" || t == "body:")
        hasHeader = true;
      pos = end + 1;
    }
  }
  int section = hasHeader ? -1 : 1; // -1 none yet, 0 init, 1 body
  bool seenInit = false, seenBody = false;
  size_t pos = 0;
  int lineNo = 0;
  while (pos <= text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string::npos)
      end = text.size();
    std::string raw = text.substr(pos, end - pos);
    pos = end + 1;
    ++lineNo;
    std::string code = raw.substr(0, raw.find('#'));
    std::string t;
    for (char ch : code)
      if (ch != ' ' && ch != '\t' && ch != '\r')
        t += ch;
    if (t.empty())
      continue;
    if (t == "init:" || t == "body:") {
      bool isInit = t == "init:";
      if ((isInit && (seenInit || seenBody)) || (!isInit && seenBody)) {
        *error = format("line %d: section '%s' repeated or out of order", lineNo, t.c_str());
        return -1;
      }
      (isInit ? seenInit : seenBody) = true;
      section = isInit ? 0 : 1;
      continue;
    }
    if (section < 0) {
      *error = format("line %d: instruction before the 'init:' or 'body:' header", lineNo);
      return -1;
    }
    Insn in;
    std::string why;
    if (decode(arch, code, destKind, &in, &why, section == 0) != 0) {
      *error = format("line %d: %s", lineNo, why.c_str());
      return -1;
    }
    in.line = lineNo;
    (section == 0 ? program->init : program->body).push_back(in);
  }
  return 0;
}

/// birsim_tensix_sfpu_run, plainly: see the comment (issue 65 item 2)
/// and D80-D88. Elements are uint32 for 32-bit kinds, uint16 otherwise.
inline int run(int arch, const std::string &programText, int destKind, const void *destIn,
               size_t count, void *destOut, std::string *error) {
  std::string dummy;
  if (!error)
    error = &dummy;
  if (arch != kWormhole && arch != kBlackhole) {
    *error = format("arch=%d: not 0 (Wormhole) or 1 (Blackhole)", arch);
    return -1;
  }
  if (destKind < kDestFp32 || destKind > kDestRaw32) {
    *error = format("dest_kind=%d: unknown", destKind);
    return -1;
  }
  Program program;
  if (parse(arch, programText, destKind, &program, error) != 0)
    return -1;
  const size_t bytes = destElementBytes(destKind);
  auto element = [&](size_t i) -> uint32_t {
    if (bytes == 4) {
      uint32_t v;
      std::memcpy(&v, (const char *)destIn + 4 * i, 4);
      return v;
    }
    uint16_t v;
    std::memcpy(&v, (const char *)destIn + 2 * i, 2);
    return v;
  };
  std::vector<uint32_t> result(count);
  for (size_t i = 0; i < count; ++i)
    result[i] = element(i);

  State s(destKind);
  std::string why;
  for (const Insn &in : program.init)
    if (execute(arch, in, s, &why) != 0) {
      *error = format("line %d (init): %s", in.line, why.c_str());
      return -2;
    }
  size_t groups = (count + 31) / 32;
  for (size_t g = 0; g < groups; ++g) {
    for (int lane = 0; lane < 32; ++lane) {
      size_t i = 32 * g + lane;
      // D80: a missing lane reads 0 (cells 0, which decode to 0).
      s.dest[lane] = i < count ? elementToCells(destKind, result[i]) : 0;
    }
    for (const Insn &in : program.body)
      if (execute(arch, in, s, &why) != 0) {
        *error = format("line %d, group %zu: %s", in.line, g, why.c_str());
        return -2;
      }
    for (int lane = 0; lane < 32; ++lane) {
      size_t i = 32 * g + lane;
      if (i < count)
        result[i] = cellsToElement(destKind, s.dest[lane]);
    }
  }
  for (size_t i = 0; i < count; ++i) {
    if (bytes == 4) {
      std::memcpy((char *)destOut + 4 * i, &result[i], 4);
    } else {
      uint16_t v = (uint16_t)result[i];
      std::memcpy((char *)destOut + 2 * i, &v, 2);
    }
  }
  return 0;
}

} // namespace birsim::test::plainsfpu

#endif // BIRSIM_TEST_UNIT_CORE_PLAINSFPU_H
