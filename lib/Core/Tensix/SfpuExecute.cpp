//===- SfpuExecute.cpp - decoding and executing SFPU words ----------------===//
//
// docs/Semantics.md section 9 [ttsim] src/tensix.cpp @56694c8: each
// instruction's checks and effect, lane by lane over the enabled lanes.
//
//===----------------------------------------------------------------------===//
#include "SfpuExecute.h"

#include <cstdio>
#include <cstring>
#include <iterator>

namespace birsim::core::sfpu {

namespace {

constexpr InstructionInfo kInstructions[] = {
#define BIRSIM_SFPU_INSTRUCTION(Name, Opcode, OperandList, Wormhole,         \
                                Blackhole)                                   \
  {#Name, Opcode, Operands::OperandList, {Wormhole, Blackhole}},
#include "SfpuInstructions.def"
};

std::string format(const char *pattern, long long a, long long b = 0) {
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
bool isTemplateStore(int arch, unsigned opcode) {
  if (opcode >= 0x74 && opcode <= 0x90)
    return true;
  if (opcode == 0x92 || opcode == 0x94 || opcode == 0x95)
    return true;
  return arch == int(TensixArch::blackhole) && opcode >= 0x96 &&
         opcode <= 0x99;
}

/// "dest < 8": a destination 8-11 is refused.
std::string destBelow8(unsigned dest) {
  return dest < 8 ? "" : format("lreg_dest=%lld", dest);
}

/// The per-instruction checks on the word alone (§9, each instruction's
/// "refused").
std::string checkFields(int arch, const Fields &f) {
  const bool bh = arch == int(TensixArch::blackhole);
  const unsigned m1 = f.mod1(), m0 = f.mod0();
  switch (f.opcode()) {
  case 0x70: // SFPLOAD
  case 0x72: { // SFPSTORE
    if (f.destRegAddr() & 1)
      return format("dest_reg_addr=%lld", f.destRegAddr());
    static constexpr bool loadModes[16] = {1, 0, 1, 1, 1, 0, 1, 0,
                                           0, 0, 0, 0, 1, 0, 1, 1};
    static constexpr bool storeModes[16] = {1, 0, 1, 1, 1, 0, 1, 1,
                                            0, 1, 0, 0, 1, 0, 1, 1};
    if (!(f.opcode() == 0x70 ? loadModes : storeModes)[m0])
      return format("instr_mod0=%lld", m0);
    return "";
  }
  case 0x71: // SFPLOADI
    if (f.lregInd() >= 8)
      return format("lreg_ind=%lld", f.lregInd());
    if (m0 != 0 && m0 != 1 && m0 != 2 && m0 != 4 && m0 != 8 && m0 != 10)
      return format("instr_mod0=%lld", m0);
    return "";
  case 0x73: // SFPLUT
    if (m0 != 4)
      return format("instr_mod0=%lld", m0);
    return f.lregInd() < 8 ? "" : format("lreg_ind=%lld", f.lregInd());
  case 0x74: // SFPMULI
  case 0x75: // SFPADDI
    if (m1)
      return format("instr_mod1=%lld", m1);
    return destBelow8(f.dest());
  case 0x76: // SFPDIVP2
    if (m1 > 1)
      return format("reserved bit set in instr_mod1=%lld", m1);
    if (f.dest() >= 8)
      return destBelow8(f.dest());
    if (f.imm12() > 0x7F && f.imm12() < 0xF80)
      return format("imm12_math=%lld", f.imm12());
    return "";
  case 0x77: // SFPEXEXP
    if (m1 & 4)
      return format("reserved bit set in instr_mod1=%lld", m1);
    if (m1 > 2 && m1 != 10)
      return format("instr_mod1=%lld", m1);
    return destBelow8(f.dest());
  case 0x78: // SFPEXMAN
    if (m1 > 1)
      return format("reserved bit set in instr_mod1=%lld", m1);
    return destBelow8(f.dest());
  case 0x79: // SFPIADD
    if (m1 > 10 || (m1 & 3) > 2)
      return format("instr_mod1=%lld", m1);
    return destBelow8(f.dest());
  case 0x7A: // SFPSHFT
    if (bh ? !(m1 <= 3 || m1 == 5 || m1 == 7) : m1 > 1)
      return format(bh ? "invalid instr_mod1=%lld" : "instr_mod1=%lld", m1);
    if (f.dest() >= 8)
      return destBelow8(f.dest());
    if (!(m1 & 1) && f.imm12())
      return format("imm12_math=%lld", f.imm12());
    return "";
  case 0x7B: // SFPSETCC
    if ((m1 & 1) || m1 > 6)
      return format("instr_mod1=%lld", m1);
    if (f.dest())
      return format("lreg_dest=%lld", f.dest());
    return f.imm12() ? format("imm12_math=%lld", f.imm12()) : "";
  case 0x7C: // SFPMOV
    if (m1 & 4)
      return format("reserved bit set in instr_mod1=%lld", m1);
    if (m1 > 2 && m1 != 8)
      return format("instr_mod1=%lld", m1);
    if (f.dest() >= 8)
      return destBelow8(f.dest());
    if (m1 == 8 && f.c() != 9)
      return format("instr_mod1=%lld lreg_c=%lld", m1, f.c());
    return "";
  case 0x7D: // SFPABS
    if (m1 > 1)
      return format("reserved bit set in instr_mod1=%lld", m1);
    return destBelow8(f.dest());
  case 0x7E: // SFPAND
  case 0x7F: // SFPOR
    if (bh && m1 == 1) {
      if (f.imm12() > 15)
        return format("imm12_math=%lld", f.imm12());
    } else {
      if (m1)
        return format("instr_mod1=%lld", m1);
      if (f.imm12())
        return format("imm12_math=%lld", f.imm12());
    }
    return destBelow8(f.dest());
  case 0x80: // SFPNOT
  case 0x8D: // SFPXOR
    return destBelow8(f.dest());
  case 0x81: // SFPLZ
    if (m1 & 1)
      return format("reserved bit set in instr_mod1=%lld", m1);
    if (m1 > 4)
      return format("instr_mod1=%lld", m1);
    return destBelow8(f.dest());
  case 0x82: // SFPSETEXP
    if (m1 > 2)
      return format("instr_mod1=%lld", m1);
    if (f.dest() >= 8)
      return destBelow8(f.dest());
    if (f.imm12() > 255)
      return format("imm12_math=%lld", f.imm12());
    if (m1 != 1 && f.imm12())
      return format("instr_mod1=%lld imm12_math=%lld", m1, f.imm12());
    return "";
  case 0x83: // SFPSETMAN
    if (m1 > 1)
      return format("instr_mod1=%lld", m1);
    if (f.dest() >= 8)
      return destBelow8(f.dest());
    return f.imm12() ? format("imm12_math=%lld", f.imm12()) : "";
  case 0x84: // SFPMAD
  case 0x85: // SFPADD
  case 0x86: { // SFPMUL
    unsigned most = f.opcode() == 0x86 ? 1 : 3;
    if (bh) {
      if (m1 > most)
        return format("instr_mod1=%lld", m1);
    } else {
      if (m1 & 3)
        return format("reserved bit set in instr_mod1=%lld", m1);
      if (m1)
        return format("instr_mod1=%lld", m1);
    }
    if (f.dest() >= 8)
      return destBelow8(f.dest());
    if (f.opcode() == 0x85 && f.a() != 10 && f.b() != 10)
      return format("invalid lreg_a=%lld lreg_b=%lld", f.a(), f.b());
    if (f.opcode() == 0x86 && f.c() != 9)
      return format("lreg_c=%lld", f.c());
    return "";
  }
  case 0x87: // SFPPUSHC
  case 0x88: // SFPPOPC
    if (m1)
      return format("instr_mod1=%lld", m1);
    return f.dest() ? format("lreg_dest=%lld", f.dest()) : "";
  case 0x89: // SFPSETSGN
    if (m1 > 1)
      return format("reserved bit set in instr_mod1=%lld", m1);
    if (f.dest() >= 8)
      return destBelow8(f.dest());
    if (f.imm12() > 1)
      return format("imm12_math=%lld", f.imm12());
    if (!(m1 & 1) && f.imm12())
      return format("instr_mod1=%lld imm12_math=%lld", m1, f.imm12());
    return "";
  case 0x8A: // SFPENCC
    if (f.dest())
      return format("lreg_dest=%lld", f.dest());
    if (m1 == 0)
      return f.imm12() ? format("instr_mod1=%lld imm12_math=%lld", m1,
                                f.imm12())
                       : "";
    return m1 == 10 ? "" : format("instr_mod1=%lld", m1);
  case 0x8B: // SFPCOMPC
  case 0x8C: // SFPTRANSP
    return f.dest() ? format("lreg_dest=%lld", f.dest()) : "";
  case 0x8E: // SFP_STOCH_RND
    if (!(m1 <= 7 || m1 == 12 || m1 == 13))
      return format("instr_mod1=%lld", m1);
    if (m1 != 1 && m1 != 2 && m1 != 3 && m1 != 6 && m1 != 7)
      return format("instr_mod1=%lld", m1);
    if (f.dest() >= 8)
      return destBelow8(f.dest());
    if (f.imm8())
      return format("imm8_math=%lld", f.imm8());
    return f.rndMode() ? format("rnd_mode=%lld", f.rndMode()) : "";
  case 0x8F: // SFPNOP
    return "";
  case 0x90: // SFPCAST
    if (bh) {
      if (m1 > 3)
        return format("instr_mod1=%lld", m1);
      if (m1 == 1)
        return "stochastic rounding is explicitly out of scope";
      if (m1 == 2)
        return format("instr_mod1=%lld should be replaced by SFPABS", m1);
    } else {
      if (m1 > 1)
        return format("instr_mod1=%lld", m1);
      if (m1)
        return "stochastic rounding is explicitly out of scope";
    }
    return destBelow8(f.dest());
  case 0x91: { // SFPCONFIG
    if (m1 > 1)
      return format("instr_mod1=%lld", m1);
    if (!m1 && f.imm16Math())
      return format("instr_mod1=%lld imm16_math=0x%llx", m1, f.imm16Math());
    unsigned to = f.dest(); // config_dest
    if (to <= 3 && m1)
      return format("config_dest=%lld instr_mod1=%lld", to, m1);
    if (to == 8) {
      if (m1 != 1)
        return format("config_dest=%lld instr_mod1=%lld", to, m1);
      if (f.imm16Math() > 0xFFF)
        return format("config_dest=%lld imm16_math=0x%llx", to, f.imm16Math());
    }
    if (to == 9 || to == 10)
      return format("config_dest=%lld", to);
    if (to >= 11 && to <= 14) {
      if (f.imm16Math())
        return format("config_dest=%lld imm16_math=0x%llx", to, f.imm16Math());
      if (m1 && to != 11)
        return format("config_dest=%lld instr_mod1=%lld", to, m1);
    }
    if (to == 15 && m1 && (f.imm16Math() & ~0x104u))
      return format("lane_config=0x%llx", f.imm16Math());
    return "";
  }
  case 0x92: // SFPSWAP
    if (f.dest() >= 12)
      return format("lreg_dest=%lld", f.dest());
    if (m1 >= 10)
      return format("instr_mod1=%lld", m1);
    if (m1 > 3 && m1 != 9)
      return format("instr_mod1=%lld", m1);
    return "";
  case 0x93: // SFPLOADMACRO
    return "explicitly out of scope: set TT_METAL_DISABLE_SFPLOADMACRO=1 to "
           "disable usage";
  case 0x94: // SFPSHFT2
    if (m1 > 6)
      return format("instr_mod1=%lld", m1);
    if (m1 < 3 || m1 > 5)
      return format("instr_mod1=%lld", m1);
    if (!bh && m1 == 4)
      return "SUBVEC_SHFLSHR1 should not be used on Wormhole due to a "
             "hardware bug";
    if (f.dest() >= 8)
      return destBelow8(f.dest());
    if (m1 == 5 ? f.imm12() >= 16 : f.imm12() != 0)
      return format("instr_mod1=%lld imm12_math=%lld", m1, f.imm12());
    return "";
  case 0x95: // SFPLUTFP32
    if (m1 != 2)
      return format("instr_mod1=%lld", m1);
    return destBelow8(f.dest());
  case 0x96: // SFPLE
  case 0x97: // SFPGT
    if (m1 != 1 && m1 != 8)
      return format("instr_mod1=%lld", m1);
    return destBelow8(f.dest());
  case 0x98: // SFPMUL24
    if (m1 & 2)
      return format("reserved bit set in instr_mod1=%lld", m1);
    if (m1 > 1)
      return format("instr_mod1=%lld", m1);
    if (f.dest() >= 8)
      return destBelow8(f.dest());
    return f.c() == 9 ? "" : format("lreg_src_c=%lld", f.c());
  case 0x99: // SFPARECIP
    if (f.dest() >= 8)
      return destBelow8(f.dest());
    if (m1)
      return format("instr_mod1=%lld", m1);
    return f.imm12() ? format("imm12_math=%lld", f.imm12()) : "";
  }
  return format("opcode=0x%llx", f.opcode());
}

//===-- Values ---------------------------------------------------------------//

/// ttsim's Dest storage encoding of a bf16 and an fp16 value, and back.
uint32_t encodeBf16(uint32_t x) {
  return (x & 0x8000) | (x & 0x7F) << 8 | (x >> 7 & 0xFF);
}
uint32_t decodeBf16(uint32_t x) {
  return (x & 0x8000) | (x & 0xFF) << 7 | (x >> 8 & 0x7F);
}
uint32_t encodeFp32(uint32_t x) {
  return encodeBf16(x >> 16) << 16 | (x & 0xFFFF);
}
uint32_t decodeFp32(uint32_t x) {
  return decodeBf16(x >> 16) << 16 | (x & 0xFFFF);
}
uint32_t encodeFp16(uint32_t x) {
  return (x & 0x8000) | (x & 0x3FF) << 5 | (x >> 10 & 0x1F);
}
uint32_t decodeFp16(uint32_t x) {
  return (x & 0x8000) | (x & 0x1F) << 10 | (x >> 5 & 0x3FF);
}

/// Denormals as zeros, keeping the sign.
uint32_t flushDenormal(uint32_t x) {
  return (x & 0x7FFFFFFF) < 0x800000 ? x & 0x80000000 : x;
}

/// The fp16 an fp32 word stores as (§9 "SFPSTORE", mode 1).
uint32_t storeFp16(uint32_t x) {
  uint32_t sign = x >> 31 << 15;
  int32_t e = int32_t(x >> 23 & 0xFF) - 112;
  if (e <= 0)
    return sign;
  if (e > 31)
    return sign | 0x7FFF;
  return sign | uint32_t(e) << 10 | (x & 0x7FFFFF) >> 13;
}

/// The words' total order of SFPSWAP, SFPLE, SFPGT.
int32_t orderKey(uint32_t x) {
  return int32_t(x & 0x80000000 ? x ^ 0x7FFFFFFF : x);
}

uint32_t stepPrng(uint32_t s) {
  uint32_t taps = uint32_t(__builtin_popcount(s & 0x80200003));
  return (~taps << 31) | (s >> 1);
}

/// SFPLUT's coefficient bytes and SFPLUTFP32's halves as fp32 words.
uint32_t lutByte(uint32_t x) {
  if (x == 0xFF)
    return 0;
  return (x >> 7) << 31 | (127 - (x >> 4 & 7)) << 23 | (x & 15) << 19;
}
uint32_t lutHalf(uint32_t x) {
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
constexpr RecipTable kRecip;

uint32_t approximateReciprocal(uint32_t a) {
  if (a < 0x800000)
    return 0x7F800000;
  if (a < 0x7E800000)
    return (253 - (a >> 23)) << 23 | uint32_t(kRecip.entry[a >> 16 & 0x7F])
                                         << 16;
  return 0;
}

/// SFP_STOCH_RND's non-stochastic modes (§9 "SFP_STOCH_RND").
uint32_t roundStochRnd(unsigned mode, uint32_t x) {
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
uint32_t castInt32(uint32_t x) {
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

const InstructionInfo *lookupInstruction(std::string_view name) {
  for (const InstructionInfo &info : kInstructions)
    if (name == info.name)
      return &info;
  return nullptr;
}

const InstructionInfo *instructionOf(unsigned opcode) {
  for (const InstructionInfo &info : kInstructions)
    if (info.opcode == opcode)
      return &info;
  return nullptr;
}

unsigned operandSlots(Operands operands, int arch, OperandSlot slots[6]) {
  const bool bh = arch == int(TensixArch::blackhole);
  auto fill = [&](std::initializer_list<OperandSlot> list) {
    unsigned n = 0;
    for (const OperandSlot &slot : list)
      slots[n++] = slot;
    return n;
  };
  switch (operands) {
  case Operands::LoadStore:
    return fill({{"lreg_ind", 20, 4},
                 {"instr_mod0", 16, 4},
                 {"sfpu_addr_mode", bh ? 13u : 14u, bh ? 3u : 2u},
                 {"dest_reg_addr", 0, bh ? 13u : 14u}});
  case Operands::LoadImmediate:
    return fill({{"lreg_ind", 20, 4}, {"instr_mod0", 16, 4}, {"imm16", 0, 16}});
  case Operands::Lut:
    return fill(
        {{"lreg_ind", 20, 4}, {"instr_mod0", 16, 4}, {"dest_reg_addr", 0, 16}});
  case Operands::Immediate16:
    return fill(
        {{"imm16_math", 8, 16}, {"lreg_dest", 4, 4}, {"instr_mod1", 0, 4}});
  case Operands::Field:
    return fill({{"imm12_math", 12, 12},
                 {"lreg_c", 8, 4},
                 {"lreg_dest", 4, 4},
                 {"instr_mod1", 0, 4}});
  case Operands::MultiplyAdd:
    return fill({{"lreg_src_a", 16, 8},
                 {"lreg_src_b", 12, 4},
                 {"lreg_src_c", 8, 4},
                 {"lreg_dest", 4, 4},
                 {"instr_mod1", 0, 4}});
  case Operands::StochasticRound:
    return fill({{"rnd_mode", 21, 3},
                 {"imm8_math", 16, 5},
                 {"lreg_src_b", 12, 4},
                 {"lreg_src_c", 8, 4},
                 {"lreg_dest", 4, 4},
                 {"instr_mod1", 0, 4}});
  case Operands::None:
    return 0;
  case Operands::Cast:
    return fill(
        {{"lreg_src_c", 8, 16}, {"lreg_dest", 4, 4}, {"instr_mod1", 0, 4}});
  case Operands::Config:
    return fill(
        {{"imm16_math", 8, 16}, {"config_dest", 4, 4}, {"instr_mod1", 0, 4}});
  case Operands::LutFp32:
    return fill({{"lreg_dest", 4, 20}, {"instr_mod1", 0, 4}});
  }
  return 0;
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

std::string checkWord(int arch, uint32_t word) {
  Fields f(word);
  unsigned opcode = f.opcode();
  // Step 1: template loads are refused, template stores are not checked.
  if (opcode >= 0x70 && opcode <= 0x73 && f.lregInd() >= 12)
    return format("inst=0x%llx: instruction template load", word);
  if (isTemplateStore(arch, opcode) && f.dest() >= 12)
    return "";
  // Steps 3-5.
  const InstructionInfo *info = instructionOf(opcode);
  if (!info || info->fields[arch] == kSfpuAbsent)
    return format("opcode=0x%llx", opcode);
  if (word & 0xFFFFFF & ~uint32_t(info->fields[arch]))
    return format("invalid opcode bits set in inst=0x%llx", word);
  return checkFields(arch, f);
}

std::string checkDestAccess(uint32_t word, bool wide, int defaultMode) {
  Fields f(word);
  if (f.opcode() != 0x70 && f.opcode() != 0x72)
    return "";
  unsigned mode = f.mod0() ? f.mod0() : unsigned(defaultMode);
  bool wideMode = mode == 3 || mode == 4 || mode == 7 || mode == 9 ||
                  mode == 12;
  if (wideMode == wide)
    return "";
  return format(wide ? "instr_mod0=%lld addresses a 16-bit Dest cell, but "
                       "the Dest kind holds 32-bit values (docs/Decisions.md "
                       "D81)"
                     : "instr_mod0=%lld addresses a 32-bit Dest value, but "
                       "the Dest kind holds 16-bit cells (docs/Decisions.md "
                       "D81)",
                mode);
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
          v = 0x80000000 | uint32_t(-int32_t(v));
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
