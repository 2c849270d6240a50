//===- SfpuChecks.cpp - what ttsim refuses in an SFPU word ----------------===//
//
// docs/Semantics.md section 9, "Decoding and what ttsim refuses" and each
// instruction's "refused" [ttsim] src/tensix.cpp @56694c8 lines 3392-4590,
// 4872-4951; the instruction table and the TTI_ macros' operands.
//
//===----------------------------------------------------------------------===//
#include "SfpuWord.h"

#include <initializer_list>

namespace birsim::core::sfpu {

namespace {

constexpr InstructionInfo kInstructions[] = {
#define BIRSIM_SFPU_INSTRUCTION(Name, Opcode, OperandList, Wormhole,         \
                                Blackhole)                                   \
  {#Name, Opcode, Operands::OperandList, {Wormhole, Blackhole}},
#include "SfpuInstructions.def"
};

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

} // namespace

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

} // namespace birsim::core::sfpu
