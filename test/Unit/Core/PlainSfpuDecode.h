//===- PlainSfpuDecode.h - a plain SFPU's state and decoder -------*- C++ -*-===//
//
// docs/Semantics.md section 9 ("The Tensix SFPU") and docs/Decisions.md
// D80-D89 written out one lane at a time, from the documentation only (not
// from ttsim, tt-metal or lib/): the second implementation the core's SFPU
// is tested against. Clarity over speed: every instruction is a loop over 32
// lanes on uint32_t words.
//
// Two entry points:
//   - decode() + execute(): one instruction (its text line) on an explicit
//     State, for exhaustive single-instruction tests;
//   - run(): a whole program text over a flat Dest array, as
//     birsim_tensix_sfpu_run does (issue 65 item 2).
// Arch: 0 Wormhole, 1 Blackhole. Dest kinds: 0 fp32, 1 bf16, 2 fp16 (as
// BIRSIM_TENSIX_DEST_*), 3 int32 (D81), 4 raw16 and 5 raw32 (D83, proposed).
//
// Where the text is ambiguous the most literal reading is taken and the
// place is marked `DOC-AMBIGUOUS:`.
//
//===----------------------------------------------------------------------===//
#ifndef BIRSIM_TEST_UNIT_CORE_PLAINSFPUDECODE_H
#define BIRSIM_TEST_UNIT_CORE_PLAINSFPUDECODE_H

#include "PlainSfpuFma.h"

#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace birsim::test::plainsfpu {

// DOC-AMBIGUOUS: the docs number only fp32 0, bf16 1, fp16 2
// (BIRSIM_TENSIX_DEST_*); D81's int32 kind and D83's proposed RAW16/RAW32
// kinds have no numbers yet. Here: 3, 4, 5.
constexpr int kDestFp32 = 0, kDestBf16 = 1, kDestFp16 = 2, kDestInt32 = 3,
              kDestRaw16 = 4, kDestRaw32 = 5;

inline bool destIs32Bit(int kind) {
  return kind == kDestFp32 || kind == kDestInt32 || kind == kDestRaw32;
}
inline const char *destName(int kind) {
  switch (kind) {
  case kDestFp32: return "fp32";
  case kDestBf16: return "bf16";
  case kDestFp16: return "fp16";
  case kDestInt32: return "int32";
  case kDestRaw16: return "raw16";
  case kDestRaw32: return "raw32";
  default: return "unknown";
  }
}
inline size_t destElementBytes(int kind) { return destIs32Bit(kind) ? 4 : 2; }

/// A caller's element as ttsim's storage cells (a 32-bit value: high cell in
/// bits 31-16), and back.
inline uint32_t elementToCells(int kind, uint32_t e) {
  switch (kind) {
  case kDestFp32:
  case kDestInt32: return encode32(e);
  case kDestBf16: return encodeBf16Cell(e & 0xFFFF);
  case kDestFp16: return encodeFp16Cell(e & 0xFFFF);
  default: return destIs32Bit(kind) ? e : (e & 0xFFFF); // raw kinds
  }
}
inline uint32_t cellsToElement(int kind, uint32_t c) {
  switch (kind) {
  case kDestFp32:
  case kDestInt32: return decode32(c);
  case kDestBf16: return decodeBf16Cell(c & 0xFFFF);
  case kDestFp16: return decodeFp16Cell(c & 0xFFFF);
  default: return destIs32Bit(kind) ? c : (c & 0xFFFF);
  }
}

/// SFPLOAD/SFPSTORE mode 0 on a Dest kind (D81, D83).
// DOC-AMBIGUOUS: D83 gives the raw kinds' mode 0 (2 and 3) but not which
// explicit modes they accept; D81's width rule is applied (raw16 as bf16,
// raw32 as fp32).
inline int defaultMode(int kind) {
  if (destIs32Bit(kind))
    return 3;
  return kind == kDestFp16 ? 1 : 2;
}

struct CcEntry {
  bool en = false;
  uint32_t cc = 0;
};

/// The SFPU's state ("State") plus the current group's 32 Dest elements.
struct State {
  uint32_t lreg[16][32];
  uint32_t cc;
  bool ccEn;
  CcEntry stack[8];
  int depth;
  uint32_t laneConfig;
  uint32_t prng[32];
  int destKind;
  uint32_t dest[32]; // storage cells of the current group's lanes

  explicit State(int kind = kDestFp32) { reset(kind); }
  void reset(int kind) {
    for (int lane = 0; lane < 32; ++lane) {
      for (int r = 0; r < 8; ++r)
        lreg[r][lane] = 0;
      lreg[8][lane] = 0x3F56594B;
      lreg[9][lane] = 0;
      lreg[10][lane] = 0x3F800000;
      lreg[11][lane] = 0xBF800000;
      lreg[12][lane] = 0x3B000000;
      lreg[13][lane] = 0xBF2CC4C7;
      lreg[14][lane] = 0xBEB08FF9;
      lreg[15][lane] = 2 * lane;
      prng[lane] = 0;
      dest[lane] = 0;
    }
    cc = 0xFFFFFFFF;
    ccEn = true;
    depth = 0;
    laneConfig = 0;
    destKind = kind;
  }
  /// The lanes an instruction reads and writes.
  uint32_t enabled() const { return ccEn ? cc : 0xFFFFFFFFu; }
  static bool on(uint32_t mask, int lane) { return (mask >> lane) & 1; }
};

//===----------------------------------------------------------------------===//
// The instructions' encodings.
//===----------------------------------------------------------------------===//

struct OperandSpec {
  const char *name;
  int shift;
  int width; // the macro's _VALID width
};

enum Shape {
  ShapeLoadStore, // lreg_ind, instr_mod0, sfpu_addr_mode, dest_reg_addr
  ShapeLoadi,     // lreg_ind, instr_mod0, imm16
  ShapeLut,       // lreg_ind, instr_mod0, dest_reg_addr
  ShapeImm16,     // imm16_math, lreg_dest, instr_mod1
  ShapeField,     // imm12_math, lreg_c, lreg_dest, instr_mod1
  ShapeMad,       // lreg_src_a, lreg_src_b, lreg_src_c, lreg_dest, instr_mod1
  ShapeStoch,     // rnd_mode, imm8_math, lreg_src_b, lreg_src_c, lreg_dest, instr_mod1
  ShapeCast,      // lreg_src_c, lreg_dest, instr_mod1
  ShapeConfig,    // imm16_math, config_dest, instr_mod1
  ShapeLutFp32,   // lreg_dest, instr_mod1
  ShapeNone,      // no operands
};

struct InsnSpec {
  const char *name;
  uint32_t opcode;
  Shape shape;
  uint32_t fieldsWh, fieldsBh; // ttsim's fields in bits 23-0
  bool blackholeOnly;
};

constexpr uint32_t bitsRange(int hi, int lo) {
  return (uint32_t)(((1ull << (hi + 1)) - 1) & ~((1ull << lo) - 1));
}

// DOC-AMBIGUOUS: section 9 lists ttsim's fields only where they differ from
// the macro (or are missing). Where it lists none (SFPLOADI aside, which it
// says match: SFPMULI, SFPADDI, SFPCONFIG, SFPLUTFP32, SFPIADD's lreg/mod
// operands...), the fields are taken to be the macro's operands.
inline const std::vector<InsnSpec> &insnTable() {
  static const std::vector<InsnSpec> table = {
      {"SFPLOAD", 0x70, ShapeLoadStore, bitsRange(23, 14) | bitsRange(9, 0),
       bitsRange(23, 13) | bitsRange(9, 0), false},
      {"SFPLOADI", 0x71, ShapeLoadi, bitsRange(23, 0), bitsRange(23, 0), false},
      {"SFPSTORE", 0x72, ShapeLoadStore, bitsRange(23, 14) | bitsRange(9, 0),
       bitsRange(23, 13) | bitsRange(9, 0), false},
      {"SFPLUT", 0x73, ShapeLut, bitsRange(23, 16), bitsRange(23, 16), false},
      {"SFPMULI", 0x74, ShapeImm16, bitsRange(23, 0), bitsRange(23, 0), false},
      {"SFPADDI", 0x75, ShapeImm16, bitsRange(23, 0), bitsRange(23, 0), false},
      {"SFPDIVP2", 0x76, ShapeField, bitsRange(23, 0), bitsRange(23, 0), false},
      {"SFPEXEXP", 0x77, ShapeField, bitsRange(11, 0), bitsRange(11, 0), false},
      {"SFPEXMAN", 0x78, ShapeField, bitsRange(11, 0), bitsRange(11, 0), false},
      {"SFPIADD", 0x79, ShapeField, bitsRange(23, 0), bitsRange(23, 0), false},
      {"SFPSHFT", 0x7A, ShapeField, bitsRange(23, 0), bitsRange(23, 0), false},
      {"SFPSETCC", 0x7B, ShapeField, bitsRange(12, 0), bitsRange(12, 0), false},
      {"SFPMOV", 0x7C, ShapeField, bitsRange(11, 0), bitsRange(11, 0), false},
      {"SFPABS", 0x7D, ShapeField, bitsRange(11, 0), bitsRange(11, 0), false},
      {"SFPAND", 0x7E, ShapeField, bitsRange(15, 0), bitsRange(15, 0), false},
      {"SFPOR", 0x7F, ShapeField, bitsRange(15, 0), bitsRange(15, 0), false},
      {"SFPNOT", 0x80, ShapeField, bitsRange(11, 4), bitsRange(11, 4), false},
      {"SFPLZ", 0x81, ShapeField, bitsRange(11, 0), bitsRange(11, 0), false},
      {"SFPSETEXP", 0x82, ShapeField, bitsRange(19, 0), bitsRange(19, 0), false},
      {"SFPSETMAN", 0x83, ShapeField, bitsRange(23, 0), bitsRange(23, 0), false},
      {"SFPMAD", 0x84, ShapeMad, bitsRange(19, 0), bitsRange(19, 0), false},
      {"SFPADD", 0x85, ShapeMad, bitsRange(19, 0), bitsRange(19, 0), false},
      {"SFPMUL", 0x86, ShapeMad, bitsRange(19, 0), bitsRange(19, 0), false},
      {"SFPPUSHC", 0x87, ShapeField, bitsRange(7, 0), bitsRange(7, 0), false},
      {"SFPPOPC", 0x88, ShapeField, bitsRange(7, 0), bitsRange(7, 0), false},
      {"SFPSETSGN", 0x89, ShapeField, bitsRange(12, 0), bitsRange(12, 0), false},
      {"SFPENCC", 0x8A, ShapeField, bitsRange(13, 12) | bitsRange(7, 0),
       bitsRange(13, 12) | bitsRange(7, 0), false},
      {"SFPCOMPC", 0x8B, ShapeField, bitsRange(7, 4), bitsRange(7, 4), false},
      {"SFPTRANSP", 0x8C, ShapeField, bitsRange(7, 4), bitsRange(7, 4), false},
      {"SFPXOR", 0x8D, ShapeField, bitsRange(11, 4), bitsRange(11, 4), false},
      {"SFP_STOCH_RND", 0x8E, ShapeStoch, bitsRange(21, 0), bitsRange(22, 0), false},
      {"SFPNOP", 0x8F, ShapeNone, 0, 0, false},
      {"SFPCAST", 0x90, ShapeCast, bitsRange(11, 0), bitsRange(11, 0), false},
      {"SFPCONFIG", 0x91, ShapeConfig, bitsRange(23, 0), bitsRange(23, 0), false},
      {"SFPSWAP", 0x92, ShapeField, bitsRange(11, 0), bitsRange(11, 0), false},
      {"SFPSHFT2", 0x94, ShapeField, bitsRange(23, 0), bitsRange(23, 0), false},
      {"SFPLUTFP32", 0x95, ShapeLutFp32, bitsRange(7, 0), bitsRange(7, 0), false},
      {"SFPLE", 0x96, ShapeField, bitsRange(11, 0), bitsRange(11, 0), true},
      {"SFPGT", 0x97, ShapeField, bitsRange(11, 0), bitsRange(11, 0), true},
      {"SFPMUL24", 0x98, ShapeMad, bitsRange(19, 0), bitsRange(19, 0), true},
      {"SFPARECIP", 0x99, ShapeField, bitsRange(15, 0), bitsRange(15, 0), true},
  };
  return table;
}

inline std::vector<OperandSpec> operandsOf(Shape shape, int arch) {
  const bool wh = arch == kWormhole;
  switch (shape) {
  case ShapeLoadStore:
    return {{"lreg_ind", 20, 4},
            {"instr_mod0", 16, 4},
            {"sfpu_addr_mode", wh ? 14 : 13, wh ? 2 : 3},
            {"dest_reg_addr", 0, wh ? 14 : 13}};
  case ShapeLoadi:
    return {{"lreg_ind", 20, 4}, {"instr_mod0", 16, 4}, {"imm16", 0, 16}};
  case ShapeLut:
    return {{"lreg_ind", 20, 4}, {"instr_mod0", 16, 4}, {"dest_reg_addr", 0, 16}};
  case ShapeImm16:
    return {{"imm16_math", 8, 16}, {"lreg_dest", 4, 4}, {"instr_mod1", 0, 4}};
  case ShapeField:
    return {{"imm12_math", 12, 12},
            {"lreg_c", 8, 4},
            {"lreg_dest", 4, 4},
            {"instr_mod1", 0, 4}};
  case ShapeMad:
    return {{"lreg_src_a", 16, 8},
            {"lreg_src_b", 12, 4},
            {"lreg_src_c", 8, 4},
            {"lreg_dest", 4, 4},
            {"instr_mod1", 0, 4}};
  case ShapeStoch:
    // DOC-AMBIGUOUS: imm8_math's macro width; the section gives only
    // "imm8_math << 16 (5-bit field 20-16)". Taken as 5 (anything wider
    // would spill into rnd_mode).
    return {{"rnd_mode", 21, 3},   {"imm8_math", 16, 5},
            {"lreg_src_b", 12, 4}, {"lreg_src_c", 8, 4},
            {"lreg_dest", 4, 4},   {"instr_mod1", 0, 4}};
  case ShapeCast:
    return {{"lreg_src_c", 8, 16}, {"lreg_dest", 4, 4}, {"instr_mod1", 0, 4}};
  case ShapeConfig:
    return {{"imm16_math", 8, 16}, {"config_dest", 4, 4}, {"instr_mod1", 0, 4}};
  case ShapeLutFp32: // the macro's _VALID allows 20 bits (section 9)
    return {{"lreg_dest", 4, 20}, {"instr_mod1", 0, 4}};
  case ShapeNone:
    return {};
  }
  return {};
}

/// One decoded instruction. `op[]` are the operands by name, as integers.
struct Insn {
  int line = 0;
  const InsnSpec *spec = nullptr;
  uint32_t word = 0;
  bool isTemplate = false; // step 1: stored as an SFPLOADMACRO template
  int mode = 0;            // SFPLOAD/SFPSTORE: the resolved mode
  // Operands by their role (0 when the shape lacks them).
  uint32_t lregInd = 0, mod0 = 0, addrMode = 0, destAddr = 0, imm = 0;
  uint32_t a = 0, b = 0, c = 0, dst = 0, mod1 = 0, rnd = 0, imm8 = 0;
};

inline std::string format(const char *fmt, ...) {
  char buffer[512];
  va_list args;
  va_start(args, fmt);
  std::vsnprintf(buffer, sizeof buffer, fmt, args);
  va_end(args);
  return buffer;
}

// DOC-AMBIGUOUS: the text's lexical details are not given beyond "decimal
// or 0x hex, separated by commas or spaces". Here: the mnemonic is matched
// exactly (upper case, no TTI_ prefix), operands are unsigned ("-1" and "+1"
// are refused, as is any value that does not fit the macro's width), "0X" is
// accepted, and an empty operand (",," or a trailing comma) is refused.
/// Splits "MNEMONIC a, b c" (comment already removed) into the mnemonic and
/// its operands; false when an operand is empty or not a plain unsigned
/// decimal or 0x hex integer.
inline bool tokenize(const std::string &text, std::string *mnemonic,
                     std::vector<uint64_t> *operands, std::string *error) {
  std::vector<std::string> tokens;
  std::string current;
  bool openComma = false; // a comma not yet followed by an operand
  for (size_t i = 0; i <= text.size(); ++i) {
    char ch = i < text.size() ? text[i] : ' ';
    bool space = ch == ' ' || ch == '\t' || ch == '\r' || ch == '\n';
    if (ch == ',' || space) {
      if (!current.empty()) {
        tokens.push_back(current);
        current.clear();
        openComma = false;
      }
      if (ch == ',') {
        if (openComma || tokens.size() < 2) {
          *error = "empty operand";
          return false;
        }
        openComma = true;
      }
    } else {
      current += ch;
    }
  }
  if (openComma) {
    *error = "empty operand after the last comma";
    return false;
  }
  if (tokens.empty()) {
    *error = "empty instruction";
    return false;
  }
  *mnemonic = tokens[0];
  for (size_t i = 1; i < tokens.size(); ++i) {
    const std::string &t = tokens[i];
    uint64_t value = 0;
    bool hex = t.size() > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X');
    for (size_t k = hex ? 2 : 0; k < t.size(); ++k) {
      char d = t[k];
      int digit;
      if (d >= '0' && d <= '9')
        digit = d - '0';
      else if (hex && d >= 'a' && d <= 'f')
        digit = d - 'a' + 10;
      else if (hex && d >= 'A' && d <= 'F')
        digit = d - 'A' + 10;
      else {
        // A '-' lands here: negative operands are out of every range.
        *error = format("operand %zu: '%s' is not an unsigned integer", i,
                        t.c_str());
        return false;
      }
      value = value * (hex ? 16 : 10) + digit;
      if (value > 0xFFFFFFFFull) {
        *error = format("operand %zu: '%s' is out of range", i, t.c_str());
        return false;
      }
    }
    operands->push_back(value);
  }
  return true;
}

inline bool inList(uint32_t v, std::initializer_list<uint32_t> list) {
  for (uint32_t x : list)
    if (x == v)
      return true;
  return false;
}

/// Step 5's static checks, then birsim's (D81, D82). "" when accepted.
inline std::string ownChecks(int arch, Insn &in, int destKind, bool inInit) {
  const bool wh = arch == kWormhole;
  const uint32_t op = in.spec->opcode;
  const uint32_t m = in.mod1;
  auto destBelow8 = [&](uint32_t d) -> std::string {
    return d >= 8 ? format("lreg_dest=%u", d) : std::string();
  };
  // DOC-AMBIGUOUS: the section gives no message for several checks, and no
  // order among an instruction's own checks. Those without a documented
  // message name the operand and its value ("instr_mod1=%d"); the checks run
  // in the order the section lists them, "dest < 8" last.
  std::string e;
  switch (op) {
  case 0x70:   // SFPLOAD
  case 0x72: { // SFPSTORE
    bool load = op == 0x70;
    if (in.destAddr % 2 != 0)
      return format("dest_reg_addr=%u", in.destAddr);
    if (load ? !inList(in.mod0, {0, 2, 3, 4, 6, 12, 14, 15})
             : !inList(in.mod0, {0, 2, 3, 4, 6, 7, 9, 12, 14, 15}))
      return format("instr_mod0=%u", in.mod0);
    if (in.destAddr != 0)
      return format("dest_reg_addr=%u: only address 0, the current group, is "
                    "accepted (birsim, D82)", in.destAddr);
    in.mode = in.mod0 == 0 ? defaultMode(destKind) : (int)in.mod0;
    bool mode16 = inList(in.mode, {1, 2, 6, 14, 15});
    if (mode16 == destIs32Bit(destKind))
      return format("instr_mod0=%u (mode %d) is a %d-bit mode and the Dest kind "
                    "is %s (birsim, D81)", in.mod0, in.mode, mode16 ? 16 : 32,
                    destName(destKind));
    // DOC-AMBIGUOUS: the init section has no current group; D82 says
    // dest_reg_addr 0 is "the current group". Loads and stores in init are
    // refused here.
    if (inInit)
      return "SFPLOAD/SFPSTORE in the init section, which has no group of Dest";
    return "";
  }
  case 0x71: // SFPLOADI
    if (in.lregInd >= 8)
      return format("lreg_ind=%u", in.lregInd);
    if (!inList(in.mod0, {0, 1, 2, 4, 8, 10}))
      return format("instr_mod0=%u", in.mod0);
    return "";
  case 0x73: // SFPLUT
    if (in.mod0 != 4)
      return format("instr_mod0=%u", in.mod0);
    return destBelow8(in.lregInd);
  case 0x74: // SFPMULI
  case 0x75: // SFPADDI
    if (m != 0)
      return format("instr_mod1=%u", m);
    return destBelow8(in.dst);
  case 0x76: // SFPDIVP2
    if (m > 1)
      return format("reserved bit set in instr_mod1=%u", m);
    if (in.imm >= 0x80 && in.imm <= 0xF7F)
      return format("imm12_math=%u", in.imm);
    return destBelow8(in.dst);
  case 0x77: // SFPEXEXP
    if (m & 4)
      return format("reserved bit set in instr_mod1=%u", m);
    if (!inList(m, {0, 1, 2, 10}))
      return format("instr_mod1=%u", m);
    return destBelow8(in.dst);
  case 0x78: // SFPEXMAN
  case 0x7D: // SFPABS
  case 0x83: // SFPSETMAN
  case 0x89: // SFPSETSGN
    if (m > 1)
      return format("instr_mod1=%u", m);
    if (op == 0x83 && in.imm != 0)
      return format("imm12_math=%u", in.imm);
    if (op == 0x89 && m == 0 && in.imm != 0)
      return format("imm12_math=%u", in.imm);
    return destBelow8(in.dst);
  case 0x79: // SFPIADD
    if (m > 10 || (m & 3) > 2)
      return format("instr_mod1=%u", m);
    return destBelow8(in.dst);
  case 0x7A: // SFPSHFT
    // DOC-AMBIGUOUS: the message is documented for Blackhole only.
    if (wh ? m > 1 : !inList(m, {0, 1, 2, 3, 5, 7}))
      return format("invalid instr_mod1=%u", m);
    if ((m & 1) == 0 && in.imm != 0)
      return format("imm12_math=%u", in.imm);
    return destBelow8(in.dst);
  case 0x7B: // SFPSETCC
    if (!inList(m, {0, 2, 4, 6}))
      return format("instr_mod1=%u", m);
    if (in.dst != 0)
      return format("lreg_dest=%u", in.dst);
    if (in.imm != 0)
      return format("imm12_math=%u", in.imm);
    return "";
  case 0x7C: // SFPMOV
    if (m & 4)
      return format("reserved bit set in instr_mod1=%u", m);
    if (!inList(m, {0, 1, 2, 8}))
      return format("instr_mod1=%u", m);
    if (m == 8 && in.c != 9)
      return format("lreg_c=%u", in.c);
    return destBelow8(in.dst);
  case 0x7E: // SFPAND
  case 0x7F: // SFPOR
    // DOC-AMBIGUOUS: "Blackhole: the same in mode 0" is read as: mode 0
    // needs imm12_math 0 on Blackhole too, and modes above 1 are refused.
    if (wh ? m != 0 : m > 1)
      return format("instr_mod1=%u", m);
    if (m == 0 && in.imm != 0)
      return format("imm12_math=%u", in.imm);
    return destBelow8(in.dst);
  case 0x80: // SFPNOT
  case 0x8D: // SFPXOR
    return destBelow8(in.dst);
  case 0x81: // SFPLZ
    if (m & 1)
      return format("reserved bit set in instr_mod1=%u", m);
    if (m > 4)
      return format("instr_mod1=%u", m);
    return destBelow8(in.dst);
  case 0x82: // SFPSETEXP
    if (m > 2)
      return format("instr_mod1=%u", m);
    if (m != 1 && in.imm != 0)
      return format("imm12_math=%u", in.imm);
    return destBelow8(in.dst);
  case 0x84: // SFPMAD
  case 0x85: // SFPADD
  case 0x86: // SFPMUL
  case 0x98: // SFPMUL24
    if (op == 0x85 && in.a != 10 && in.b != 10)
      return format("invalid lreg_a=%u lreg_b=%u", in.a, in.b);
    if (op == 0x86 && in.c != 9)
      return format("lreg_c=%u", in.c);
    if (op == 0x98) {
      if (m & 2)
        return format("reserved bit set in instr_mod1=%u", m);
      if (m > 1)
        return format("instr_mod1=%u", m);
      if (in.c != 9)
        return format("lreg_c=%u", in.c);
    } else if (wh) {
      // DOC-AMBIGUOUS: SFPMAD's two messages are documented; SFPADD and
      // SFPMUL on Wormhole get the same ones.
      if (m & 3)
        return format("reserved bit set in instr_mod1=%u", m);
      if (m != 0)
        return format("instr_mod1=%u", m);
    } else if (m > (op == 0x86 ? 1u : 3u)) {
      return format("instr_mod1=%u", m);
    }
    return destBelow8(in.dst);
  case 0x87: // SFPPUSHC
  case 0x88: // SFPPOPC
  case 0x8B: // SFPCOMPC
  case 0x8C: // SFPTRANSP
    if (m != 0)
      return format("instr_mod1=%u", m);
    if (in.dst != 0)
      return format("lreg_dest=%u", in.dst);
    return "";
  case 0x8A: // SFPENCC
    if (in.dst != 0)
      return format("lreg_dest=%u", in.dst);
    if (m != 0 && m != 10)
      return format("instr_mod1=%u", m);
    if (m == 0 && in.imm != 0)
      return format("imm12_math=%u", in.imm);
    return "";
  case 0x8E: // SFP_STOCH_RND
    if (!(m <= 7 || m == 12 || m == 13))
      return format("instr_mod1=%u", m);
    if (!inList(m, {1, 2, 3, 6, 7}))
      return format("instr_mod1=%u", m);
    if ((e = destBelow8(in.dst)) != "")
      return e;
    if (in.imm8 != 0)
      return format("imm8_math=%u", in.imm8);
    if (in.rnd != 0)
      return format("rnd_mode=%u", in.rnd);
    return "";
  case 0x8F: // SFPNOP
    return "";
  case 0x90: // SFPCAST
    if (m > (wh ? 1u : 3u))
      return format("instr_mod1=%u", m);
    if (m == 1)
      return "stochastic rounding is explicitly out of scope";
    if (m == 2)
      return "instr_mod1=2 should be replaced by SFPABS";
    return destBelow8(in.dst);
  case 0x91: { // SFPCONFIG (static part; L0 and the lanes are run-time)
    uint32_t d = in.dst, v = in.imm;
    if (m > 1)
      return format("instr_mod1=%u", m);
    if (m == 0 && v != 0)
      return format("imm16_math=%u", v);
    if (d <= 3 && m != 0)
      return format("instr_mod1=%u with config_dest=%u", m, d);
    if (d == 8 && m != 1)
      return format("instr_mod1=%u with config_dest=%u", m, d);
    if (d == 8 && v > 0xFFF)
      return format("imm16_math=%u", v);
    if (d == 9 || d == 10)
      return format("config_dest=%u", d);
    if (d >= 11 && d <= 14 && v != 0)
      return format("imm16_math=%u", v);
    if (d >= 12 && d <= 14 && m == 1)
      return format("instr_mod1=%u with config_dest=%u", m, d);
    if (d == 15 && m == 1 && (v & ~0x104u) != 0)
      return format("lane_config=0x%x", v);
    return "";
  }
  case 0x92: // SFPSWAP
    if (m >= 10)
      return format("instr_mod1=%u", m);
    if (m >= 4 && m <= 8)
      return format("instr_mod1=%u: not implemented", m);
    return ""; // lreg_dest 8-11 accepted; 12-15 never get here
  case 0x94: // SFPSHFT2
    if (m > 6)
      return format("instr_mod1=%u", m);
    if (!inList(m, {3, 4, 5}))
      return format("instr_mod1=%u", m);
    if (m == 4 && wh)
      return "SUBVEC_SHFLSHR1 should not be used on Wormhole due to a hardware bug";
    if ((e = destBelow8(in.dst)) != "")
      return e;
    if (m == 5 ? in.imm >= 16 : in.imm != 0)
      return format("imm12_math=%u", in.imm);
    return "";
  case 0x95: // SFPLUTFP32
    if (m != 2)
      return format("instr_mod1=%u", m);
    return destBelow8(in.dst);
  case 0x96: // SFPLE
  case 0x97: // SFPGT
    if (m != 1 && m != 8)
      return format("instr_mod1=%u", m);
    return destBelow8(in.dst);
  case 0x99: // SFPARECIP
    if (m != 0)
      return format("instr_mod1=%u", m);
    if (in.imm != 0)
      return format("imm12_math=%u", in.imm);
    return destBelow8(in.dst);
  default:
    return format("opcode=0x%x", op);
  }
}

inline bool isTemplateOpcode(int arch, uint32_t op) {
  if (op >= 0x74 && op <= 0x90)
    return true;
  if (op == 0x92 || op == 0x94 || op == 0x95)
    return true;
  return arch == kBlackhole && op >= 0x96 && op <= 0x99;
}

/// Parses and statically checks one instruction line (comments allowed).
/// Returns 0, or -1 with `error` set (without the line number).
inline int decode(int arch, const std::string &lineText, int destKind, Insn *out,
                  std::string *error, bool inInit = false) {
  std::string text = lineText.substr(0, lineText.find('#'));
  std::string mnemonic;
  std::vector<uint64_t> ops;
  std::string why;
  if (!tokenize(text, &mnemonic, &ops, &why)) {
    *error = why;
    return -1;
  }
  if (mnemonic == "INCRWC" || mnemonic == "SETRWC" || mnemonic == "REPLAY" ||
      mnemonic == "SETADC" || mnemonic.rfind("ADDR_MOD", 0) == 0 ||
      mnemonic == "SETC16") {
    // DOC-AMBIGUOUS: the section names INCRWC, SETRWC, REPLAY and
    // "address-mode setup" without a mnemonic for the last; ADDR_MOD* and
    // SETC16 are taken as that.
    *error = mnemonic + ": the loop's instruction, not an SFPU instruction (the "
                        "runner advances the group; D82)";
    return -1;
  }
  if (mnemonic == "SFPLOADMACRO") {
    // DOC-AMBIGUOUS: the section gives no operands for SFPLOADMACRO; it is
    // refused by name before its operands are looked at.
    *error = "SFPLOADMACRO: explicitly out of scope: set "
             "TT_METAL_DISABLE_SFPLOADMACRO=1 to disable usage";
    return -1;
  }
  const InsnSpec *spec = nullptr;
  for (const InsnSpec &s : insnTable())
    if (mnemonic == s.name)
      spec = &s;
  if (!spec) {
    *error = "unknown mnemonic '" + mnemonic + "'";
    return -1;
  }
  const std::string name = spec->name;
  std::vector<OperandSpec> operandSpecs = operandsOf(spec->shape, arch);
  if (ops.size() != operandSpecs.size()) {
    *error = format("%s: %zu operands, the macro takes %zu", spec->name, ops.size(),
                    operandSpecs.size());
    return -1;
  }
  Insn in;
  in.spec = spec;
  uint32_t word = spec->opcode << 24;
  for (size_t i = 0; i < ops.size(); ++i) {
    const OperandSpec &o = operandSpecs[i];
    if (ops[i] >= (1ull << o.width)) {
      *error = format("%s: operand %s=%llu out of range (the macro's %d bits)",
                      spec->name, o.name, (unsigned long long)ops[i], o.width);
      return -1;
    }
    word |= (uint32_t)(ops[i] << o.shift);
    uint32_t v = (uint32_t)ops[i];
    std::string n = o.name;
    if (n == "lreg_ind") in.lregInd = v;
    else if (n == "instr_mod0") in.mod0 = v;
    else if (n == "sfpu_addr_mode") in.addrMode = v;
    else if (n == "dest_reg_addr") in.destAddr = v;
    else if (n == "imm16" || n == "imm16_math" || n == "imm12_math") in.imm = v;
    else if (n == "lreg_src_a") in.a = v;
    else if (n == "lreg_src_b") in.b = v;
    else if (n == "lreg_src_c" || n == "lreg_c") in.c = v;
    else if (n == "lreg_dest" || n == "config_dest") in.dst = v;
    else if (n == "instr_mod1") in.mod1 = v;
    else if (n == "rnd_mode") in.rnd = v;
    else if (n == "imm8_math") in.imm8 = v;
  }
  in.word = word;
  const uint32_t op = spec->opcode;
  // Step 1: template loads.
  if (op <= 0x73 && ((word >> 20) & 0xF) >= 12) {
    *error = name + format(": inst=0x%x: instruction template load", word);
    return -1;
  }
  if (isTemplateOpcode(arch, op) && ((word >> 4) & 0xF) >= 12) {
    in.isTemplate = true;
    *out = in;
    return 0;
  }
  // Step 4 for an opcode the architecture lacks: it has no fields to check.
  // DOC-AMBIGUOUS: D85 says every opcode 0x74-0x99 with lreg_dest 12-15 is a
  // template; section 9 step 1 intercepts 0x96-0x99 on Blackhole only. On
  // Wormhole those opcodes are refused here, whatever their lreg_dest.
  if (spec->blackholeOnly && arch == kWormhole) {
    *error = name + format(": opcode=0x%x (not a Wormhole instruction)", op);
    return -1;
  }
  // Step 3: bits outside ttsim's fields.
  uint32_t fields = arch == kWormhole ? spec->fieldsWh : spec->fieldsBh;
  if ((word & 0xFFFFFF & ~fields) != 0) {
    *error = name + format(": invalid opcode bits set in inst=0x%x", word);
    return -1;
  }
  // Step 5 and birsim's own.
  std::string why5 = ownChecks(arch, in, destKind, inInit);
  if (!why5.empty()) {
    *error = name + ": " + why5;
    return -1;
  }
  *out = in;
  return 0;
}

} // namespace birsim::test::plainsfpu

#endif // BIRSIM_TEST_UNIT_CORE_PLAINSFPUDECODE_H
