//===- SfpuVsPlainTest.cpp - the core's SFPU against the plain one --------===//
//
// The core's SFPU (lib/Core/Tensix, written from ttsim's source) against
// PlainSfpu.h (written from docs/Semantics.md section 9 alone, by another
// hand): the FMA on random and special triples, every 16-bit operand of
// the loads, stores and immediates, and seeded random programs of every
// instruction, accepted or refused alike and bit for bit. BIRSIM_LONG_TESTS
// makes the sweeps denser.
//
//===----------------------------------------------------------------------===//
#include "birsim/Core/Tensix/Sfpu.h"

#include "PlainSfpu.h"
#include "Tensix/SfpuExecute.h"

#include "gtest/gtest.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

using namespace birsim::core;
namespace plain = birsim::test::plainsfpu;

namespace {

bool longMode() { return std::getenv("BIRSIM_LONG_TESTS") != nullptr; }

size_t elementBytes(int kind) { return kind == 0 ? 4 : 2; }

struct Outcome {
  bool ok;
  std::vector<uint8_t> out;
  std::string error;
};

Outcome runCore(int arch, const std::string &text, int kind,
                const std::vector<uint8_t> &in) {
  size_t count = in.size() / elementBytes(kind);
  Outcome o{false, std::vector<uint8_t>(in.size(), 0xA5), ""};
  SfpuProgram program;
  o.ok = parseSfpuProgram(arch, text, program, o.error) &&
         runSfpuProgram(program, kind, in.data(), count, o.out.data(),
                        o.error);
  return o;
}

Outcome runPlain(int arch, const std::string &text, int kind,
                 const std::vector<uint8_t> &in) {
  size_t count = in.size() / elementBytes(kind);
  Outcome o{false, std::vector<uint8_t>(in.size(), 0xA5), ""};
  o.ok = plain::run(arch, text, kind, in.data(), count, o.out.data(),
                    &o.error) == 0;
  return o;
}

/// Both accept or both refuse; accepted, the same bytes. Returns whether
/// the program ran.
bool agree(int arch, const std::string &text, int kind,
           const std::vector<uint8_t> &in) {
  Outcome a = runCore(arch, text, kind, in), b = runPlain(arch, text, kind, in);
  EXPECT_EQ(a.ok, b.ok) << "arch " << arch << " kind " << kind << "\n"
                        << text << "\ncore: " << a.error
                        << "\nplain: " << b.error;
  if (a.ok && b.ok)
    EXPECT_TRUE(a.out == b.out) << "arch " << arch << " kind " << kind
                                << "\n" << text;
  return a.ok && b.ok;
}

/// Words that exercise every rule: zeros, denormals, the exponent range's
/// ends, Inf, NaN payloads, ties and carries.
std::vector<uint32_t> specialWords() {
  std::vector<uint32_t> words = {
      0x00000000, 0x80000000, 0x00000001, 0x807FFFFF, 0x00800000, 0x80800000,
      0x3F800000, 0xBF800000, 0x3F800001, 0x3FFFFFFF, 0x7F7FFFFF, 0xFF7FFFFF,
      0x7F800000, 0xFF800000, 0x7F800001, 0x7FC00000, 0xFFFFFFFF, 0x7F7F8000,
      0x43008000, 0x4B000000, 0x4F000000, 0xCF000000, 0x0000FFFF, 0x00008000,
      0x7FFFFFFF, 0x3F7FFFFF, 0x33800000, 0x4B7FFFFF, 0x00000005, 0xFFFFFFFB};
  return words;
}

std::vector<uint8_t> bytesOf(const std::vector<uint32_t> &words, int kind) {
  std::vector<uint8_t> bytes(words.size() * elementBytes(kind));
  for (size_t i = 0; i < words.size(); ++i)
    std::memcpy(&bytes[i * elementBytes(kind)], &words[i], elementBytes(kind));
  return bytes;
}

} // namespace

// The FMA models on special triples (all combinations) and 2^20 random
// ones (2^24 long), both architectures.
TEST(SfpuVsPlain, Fma) {
  std::vector<uint32_t> special = specialWords();
  for (int arch : {0, 1}) {
    for (uint32_t x : special)
      for (uint32_t y : special)
        for (uint32_t z : special)
          ASSERT_EQ(sfpuFma(arch, x, y, z), plain::fma(arch, x, y, z))
              << std::hex << arch << " " << x << " " << y << " " << z;
    std::mt19937_64 rng(65 + arch);
    size_t n = longMode() ? size_t(1) << 24 : size_t(1) << 20;
    for (size_t i = 0; i < n; ++i) {
      uint64_t r = rng();
      uint32_t x = uint32_t(r), y = uint32_t(r >> 32), z = uint32_t(rng());
      // Near cancellations: z close to -x*y's exponent half the time.
      if (i & 1)
        z = (z & 0x807FFFFF) | (((x >> 23 & 0xFF) + (y >> 23 & 0xFF) - 127 +
                                 (z >> 29 & 3)) & 0xFF)
                                   << 23;
      ASSERT_EQ(sfpuFma(arch, x, y, z), plain::fma(arch, x, y, z))
          << std::hex << arch << " " << x << " " << y << " " << z;
    }
  }
}

// Every 16-bit cell of a bf16 and an fp16 Dest through every load mode and
// store mode the kind takes, with a multiply-add between (x * x + x).
TEST(SfpuVsPlain, EverySixteenBitCellThroughEveryMode) {
  std::vector<uint32_t> cells(65536);
  for (uint32_t i = 0; i < 65536; ++i)
    cells[i] = i;
  for (int arch : {0, 1})
    for (int kind : {1, 2}) {
      std::vector<uint8_t> in = bytesOf(cells, kind);
      for (int load : {0, 2, 6, 14, 15})
        for (int store : {0, 2, 6, 14, 15}) {
          std::string move = "SFPLOAD 0, " + std::to_string(load) +
                             ", 0, 0\nSFPSTORE 0, " + std::to_string(store) +
                             ", 0, 0\n";
          EXPECT_TRUE(agree(arch, move, kind, in)) << move;
          std::string mad = "SFPLOAD 0, " + std::to_string(load) +
                            ", 0, 0\nSFPMAD 0, 0, 0, 1, 0\nSFPSTORE 1, " +
                            std::to_string(store) + ", 0, 0\n";
          EXPECT_TRUE(agree(arch, mad, kind, in)) << mad;
        }
    }
}

// Every immediate of SFPLOADI's modes, SFPMULI and SFPADDI (every 7th
// immediate by default, all with BIRSIM_LONG_TESTS), over special words.
TEST(SfpuVsPlain, EverySixteenBitImmediate) {
  std::vector<uint8_t> in = bytesOf(specialWords(), 0);
  unsigned stride = longMode() ? 1 : 7;
  for (int arch : {0, 1})
    for (unsigned imm = 0; imm < 65536; imm += stride) {
      std::string hex = std::to_string(imm);
      for (int mode : {0, 1, 2, 4, 8, 10})
        agree(arch,
              "SFPLOAD 0, 3, 0, 0\nSFPLOADI 0, " + std::to_string(mode) +
                  ", " + hex + "\nSFPSTORE 0, 4, 0, 0\n",
              0, in);
      agree(arch, "SFPLOAD 0, 3, 0, 0\nSFPMULI " + hex +
                      ", 0, 0\nSFPSTORE 0, 4, 0, 0\n", 0, in);
      agree(arch, "SFPLOAD 0, 3, 0, 0\nSFPADDI " + hex +
                      ", 0, 0\nSFPSTORE 0, 4, 0, 0\n", 0, in);
      if (HasFailure())
        return;
    }
}

namespace {

/// A random program: constants into L1-L7, the element into L0, a few
/// instructions of the whole set with operands biased to what ttsim
/// accepts, then one register stored.
std::string randomProgram(std::mt19937_64 &rng, int arch, int kind) {
  auto pick = [&](uint64_t n) { return uint64_t(rng() % n); };
  std::string text = "init:\n";
  for (int r = 1; r < 8; ++r) {
    std::vector<uint32_t> special = specialWords();
    uint32_t w = pick(2) ? special[pick(special.size())] : uint32_t(rng());
    text += "SFPLOADI " + std::to_string(r) + ", 8, " +
            std::to_string(w >> 16) + "\nSFPLOADI " + std::to_string(r) +
            ", 10, " + std::to_string(w & 0xFFFF) + "\n";
  }
  if (pick(4) == 0)
    text += "SFPCONFIG 0, 15, 1\n"; // lane_config = 0, all lanes
  text += "body:\nSFPLOAD 0, 0, 0, 0\n";
  unsigned n = 1 + unsigned(pick(6));
  for (unsigned k = 0; k < n; ++k) {
    // Mostly instructions ttsim takes on their own (drawn until one
    // parses), sometimes any: both implementations must refuse those.
    bool anyOperands = pick(10) == 0;
    std::string line;
    for (int attempt = 0; attempt < 200; ++attempt) {
      unsigned opcode;
      const sfpu::InstructionInfo *info;
      do {
        opcode = 0x71 + unsigned(pick(0x99 - 0x71 + 1));
        info = sfpu::instructionOf(opcode);
      } while (!info || opcode == 0x72 || opcode == 0x93);
      sfpu::OperandSlot slots[6];
      unsigned count = sfpu::operandSlots(info->operands, arch, slots);
      line = info->name;
      for (unsigned s = 0; s < count; ++s) {
        uint64_t limit = uint64_t(1) << slots[s].width;
        std::string name = slots[s].name;
        uint64_t value;
        if (name.rfind("lreg", 0) == 0 || name == "config_dest")
          value = pick(10) ? pick(12) : pick(limit);
        else if (name.rfind("instr_mod", 0) == 0)
          value = pick(16);
        else if (name == "dest_reg_addr" || name == "sfpu_addr_mode" ||
                 name == "rnd_mode" || name == "imm8_math")
          value = pick(8) ? 0 : pick(limit);
        else // immediates
          value = pick(3) ? pick(std::min<uint64_t>(limit, 32)) : pick(limit);
        line += (s ? ", " : " ") + std::to_string(value);
      }
      SfpuProgram probe;
      std::string error;
      if (anyOperands || parseSfpuProgram(arch, line, probe, error))
        break;
    }
    text += line + "\n";
  }
  text += "SFPSTORE " + std::to_string(pick(8)) + ", 0, 0, 0\n";
  (void)kind;
  return text;
}

} // namespace

// Seeded random programs over 70 elements (two whole groups and a partial
// one) of every Dest kind: the same refusals and the same bits.
TEST(SfpuVsPlain, RandomPrograms) {
  std::mt19937_64 rng(2026);
  size_t programs = longMode() ? 200000 : 6000, ran = 0;
  std::vector<uint32_t> special = specialWords();
  for (size_t p = 0; p < programs; ++p) {
    int arch = int(rng() & 1), kind = int(rng() % 3);
    std::vector<uint32_t> words(70);
    for (uint32_t &w : words)
      w = rng() & 1 ? special[rng() % special.size()] : uint32_t(rng());
    ran += agree(arch, randomProgram(rng, arch, kind), kind,
                 bytesOf(words, kind));
    if (HasFailure())
      return;
  }
  std::printf("%zu of %zu random programs ran (the rest refused alike)\n",
              ran, programs);
  EXPECT_GT(ran, programs / 5) << "too few random programs ran";
}
