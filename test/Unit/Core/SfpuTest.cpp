//===- SfpuTest.cpp - the Tensix SFPU against public vectors and facts ----===//
//
// The core's SFPU (lib/Core/Tensix) against mesham/tt-sim's vectors dumped
// from ttsim (SfpuVectors.inc), the facts docs/Semantics.md section 9
// states, the named ops over every bf16 input, and every refusal.
//
//===----------------------------------------------------------------------===//
#include "birsim/Core/Tensix/Sfpu.h"

#include "Tensix/SfpuExecute.h"

#include "gtest/gtest.h"

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

using namespace birsim::core;

namespace {

constexpr int kWormhole = 0, kBlackhole = 1;
constexpr int kDestFp32 = 0, kDestBf16 = 1, kDestFp16 = 2;

uint32_t bitsOf(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}
float floatOf(uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

/// The one word of a one-instruction program.
uint32_t wordOf(int arch, const std::string &text) {
  SfpuProgram program;
  std::string error;
  EXPECT_TRUE(parseSfpuProgram(arch, text, program, error)) << error;
  return program.body.empty() ? 0 : program.body[0].word;
}

/// Runs `text` over 32-bit Dest values.
std::vector<uint32_t> runFp32(int arch, const std::string &text,
                              std::vector<uint32_t> in) {
  SfpuProgram program;
  std::string error;
  EXPECT_TRUE(parseSfpuProgram(arch, text, program, error)) << error;
  std::vector<uint32_t> out(in.size(), 0xDEADBEEF);
  EXPECT_TRUE(runSfpuProgram(program, kDestFp32, in.data(), in.size(),
                             out.data(), error))
      << error;
  return out;
}

std::string refusalOf(int arch, const std::string &text, int destKind = 0) {
  SfpuProgram program;
  std::string error;
  if (!parseSfpuProgram(arch, text, program, error))
    return error;
  uint32_t in[40] = {}, out[40];
  if (!runSfpuProgram(program, destKind, in, 40, out, error))
    return error;
  return "";
}

} // namespace

// fma_model_test.py's triples (mesham/tt-sim, SfpuVectors.inc), directly
// and through SFPMAD 1, 2, 3, 0, 0.
TEST(Sfpu, FmaVectorsFromTtSim) {
  int rows = 0;
#define SFPU_FMA_VECTOR(x, y, z, wh, bh, line)                                 \
  EXPECT_EQ(sfpuFma(kWormhole, x, y, z), uint32_t(wh)) << "line " << line;    \
  EXPECT_EQ(sfpuFma(kBlackhole, x, y, z), uint32_t(bh)) << "line " << line;   \
  ++rows;
#include "SfpuVectors.inc"
#undef SFPU_FMA_VECTOR
  EXPECT_EQ(rows, 25);
}

// One lane of one instruction from the reset state with LReg0-3 set
// (sfpu_blackhole_modes_test.py); the rows ttsim refuses are refused.
TEST(Sfpu, LaneVectorsFromTtSim) {
  int rows = 0, refused = 0;
#define SFPU_LANE_VECTOR(arch, text, l0, l1, l2, l3, want, wantCc, ttsim, line)\
  {                                                                           \
    ++rows;                                                                   \
    SfpuProgram program;                                                      \
    std::string error;                                                        \
    bool parsed = parseSfpuProgram(arch, text, program, error);               \
    if (!(ttsim)) {                                                           \
      EXPECT_FALSE(parsed) << text << " line " << line;                       \
      ++refused;                                                              \
    } else {                                                                  \
      ASSERT_TRUE(parsed) << text << ": " << error;                           \
      sfpu::State state;                                                      \
      sfpu::Group group{true, 3, {}};                                         \
      const uint32_t init[4] = {l0, l1, l2, l3};                              \
      for (int r = 0; r < 4; ++r)                                             \
        for (int lane = 0; lane < 32; ++lane)                                 \
          state.lreg[r][lane] = init[r];                                      \
      ASSERT_TRUE(sfpu::execute(arch, program.body[0].word, state, group,     \
                                error))                                       \
          << text << ": " << error;                                           \
      EXPECT_EQ(state.lreg[0][0], uint32_t(want)) << text << " line " << line;\
      if ((wantCc) >= 0)                                                      \
        EXPECT_EQ(int(state.cc & 1), int(wantCc)) << text << " line " << line;\
    }                                                                         \
  }
#include "SfpuVectors.inc"
#undef SFPU_LANE_VECTOR
  EXPECT_EQ(rows, 38);
  EXPECT_EQ(refused, 11);
}

// Lane shuffles of every lane (SFPSHFT2's rotates): LReg[src] lane i
// holds 0x100 + i, then LReg0 lane i is the row's expect[i].
void checkLanes(int arch, const char *text, int src,
                std::initializer_list<uint32_t> expect, int ttsim, int line) {
  ASSERT_EQ(expect.size(), 32u);
  ASSERT_EQ(ttsim, 1);
  sfpu::State state;
  sfpu::Group group{true, 3, {}};
  for (int lane = 0; lane < 32; ++lane)
    state.lreg[src][lane] = 0x100 + lane;
  std::string error;
  ASSERT_TRUE(sfpu::execute(arch, wordOf(arch, text), state, group, error))
      << error;
  int lane = 0;
  for (uint32_t want : expect) {
    EXPECT_EQ(state.lreg[0][lane], want) << text << " lane " << lane
                                         << " line " << line;
    ++lane;
  }
}

TEST(Sfpu, LanesVectorsFromTtSim) {
  int rows = 0;
#define SFPU_LANES_VECTOR(arch, text, src, ...)                                \
  checkLanes(arch, text, src, __VA_ARGS__);                                   \
  ++rows;
#include "SfpuVectors.inc"
#undef SFPU_LANES_VECTOR
  EXPECT_EQ(rows, 3);
}

// §9 "The FMA models": one triple on which SFPMAD, an IEEE fma and a
// rounded multiply then add all differ.
TEST(Sfpu, MadIsPartiallyFused) {
  uint32_t x = 0x3F800001, z = 0xBF800002;
  for (int arch : {kWormhole, kBlackhole}) {
    std::vector<uint32_t> out =
        runFp32(arch,
                "init:\nSFPLOADI 1, 8, 0x3f80\nSFPLOADI 1, 10, 0x0001\n"
                "SFPLOADI 3, 8, 0xbf80\nSFPLOADI 3, 10, 0x0002\n"
                "body:\nSFPMAD 1, 1, 3, 0, 0\nSFPSTORE 0, 4, 0, 0\n",
                {0});
    EXPECT_EQ(out[0], 0x32800000u); // 2^-26
  }
  EXPECT_EQ(bitsOf(std::fma(floatOf(x), floatOf(x), floatOf(z))), 0x28800000u);
  volatile float product = floatOf(x) * floatOf(x);
  EXPECT_EQ(bitsOf(product + floatOf(z)), 0u);
  // A denormal operand is a zero; 2^-126 * 0.5 flushes.
  EXPECT_EQ(sfpuFma(kWormhole, 0x00800000, 0x3F000000, 0), 0u);
  EXPECT_EQ(sfpuFma(kBlackhole, 0x00400000, 0x3F800000, 0x3F800000),
            0x3F800000u);
}

// SFP_STOCH_RND in the mode tt-metal names RND_EVEN rounds half away from
// zero (tt-metal #30147): fp32 128.5 becomes bf16 129.
TEST(Sfpu, StochRndRoundsHalfAway) {
  for (int arch : {kWormhole, kBlackhole}) {
    std::vector<uint32_t> out =
        runFp32(arch,
                "SFPLOAD 0, 3, 0, 0\nSFP_STOCH_RND 0, 0, 0, 0, 1, 1\n"
                "SFPSTORE 1, 3, 0, 0\n",
                {0x43008000, 0x43018000, 0xC3008000, 0x7FC00001, 0x00000001,
                 0x7F7F8000});
    EXPECT_EQ(out[0], 0x43010000u); // 128.5 -> 129
    EXPECT_EQ(out[1], 0x43020000u); // 129.5 -> 130
    EXPECT_EQ(out[2], 0xC3010000u);
    EXPECT_EQ(out[3], 0x7F800000u); // a NaN becomes Inf
    EXPECT_EQ(out[4], 0u);          // a denormal +0
    EXPECT_EQ(out[5], 0x7F800000u); // the carry reaches Inf
  }
}

// SFPSTORE to a bf16 Dest truncates (tt-metal #57408): 1 + 2^-7 - 2^-20
// stores as 1.0, not 1 + 2^-7.
TEST(Sfpu, StoreToBf16Truncates) {
  SfpuProgram program;
  std::string error;
  ASSERT_TRUE(parseSfpuProgram(kWormhole,
                               "init:\nSFPLOADI 1, 8, 0x3f81\n"
                               "SFPLOADI 1, 10, 0xfff0\nbody:\n"
                               "SFPSTORE 1, 0, 0, 0\n",
                               program, error))
      << error;
  uint16_t in[3] = {0, 0, 0}, out[3];
  ASSERT_TRUE(runSfpuProgram(program, kDestBf16, in, 3, out, error)) << error;
  EXPECT_EQ(out[0], 0x3F81); // 0x3F81FFF0 >> 16
  uint16_t half = 0x3C00, back;
  // An fp16 Dest: mode 0 is mode 1, an exponent rebias.
  ASSERT_TRUE(parseSfpuProgram(kWormhole, "SFPLOAD 0, 0, 0, 0\n"
                                          "SFPSTORE 0, 0, 0, 0\n",
                               program, error));
  ASSERT_TRUE(runSfpuProgram(program, kDestFp16, &half, 1, &back, error));
  EXPECT_EQ(back, 0x3C00);
}

namespace {

/// bf16 ranks with subnormals collapsed to zero (tt-llk helpers/ulp.py).
int64_t bf16Rank(uint16_t x) {
  int64_t magnitude = (x & 0x7F80) ? int64_t(x & 0x7FFF) - 0x7F : 0;
  return (x & 0x8000) ? -magnitude : magnitude;
}

/// exp of a bf16 value, correctly rounded to bf16 (nearest even).
uint16_t bf16Exp(uint16_t x) {
  double r = std::exp(double(floatOf(uint32_t(x) << 16)));
  float f = float(r); // exact enough: bf16 needs 8 bits
  uint32_t u = bitsOf(f);
  if ((u & 0x7F800000) == 0x7F800000)
    return uint16_t(u >> 16);
  // Round the double, not the float, to bf16: compare against the midpoint.
  uint32_t down = u & 0xFFFF0000, up = down + 0x10000;
  double lo = double(floatOf(down)), hi = double(floatOf(up));
  double mid = (lo + hi) / 2;
  uint32_t chosen = r < mid ? down : r > mid ? up : ((down >> 16) & 1 ? up : down);
  return uint16_t(chosen >> 16);
}

} // namespace

// ttnn.exp on a bf16 Dest (the LLK's _sfpu_exp_21f_bf16_tti_): c0 as
// loaded (0x3C02) makes 0x3B07 give 0x3F81; every finite bf16 input is
// within 1 ULP of the correctly rounded exp on Wormhole, where tt-llk's
// budget table records 1; the two architectures' bodies differ only on the
// negative NaNs 0xFF81-0xFFFF.
TEST(Sfpu, ExpOverEveryBf16) {
  int op = sfpuOpNumber("exp");
  ASSERT_GE(op, 0);
  std::vector<uint16_t> in(65536), wh(65536), bh(65536);
  for (uint32_t i = 0; i < 65536; ++i)
    in[i] = uint16_t(i);
  std::string error;
  ASSERT_TRUE(runSfpuOp(kWormhole, op, kDestBf16, in.data(), in.size(),
                        wh.data(), error))
      << error;
  ASSERT_TRUE(runSfpuOp(kBlackhole, op, kDestBf16, in.data(), in.size(),
                        bh.data(), error))
      << error;
  EXPECT_EQ(wh[0x3B07], 0x3F81);
  int64_t worst = 0;
  unsigned worstInput = 0, differing = 0;
  for (uint32_t i = 0; i < 65536; ++i) {
    if (wh[i] != bh[i]) {
      ++differing;
      EXPECT_GE(i, 0xFF81u) << std::hex << i;
    }
    if ((i & 0x7F80) == 0x7F80)
      continue; // Inf and NaN inputs
    int64_t ulp = std::llabs(bf16Rank(wh[i]) - bf16Rank(bf16Exp(uint16_t(i))));
    if (ulp > worst)
      worst = ulp, worstInput = i;
  }
  std::printf("exp (Wormhole, bf16 Dest): max %lld ULP at 0x%04X\n",
              (long long)worst, worstInput);
  EXPECT_EQ(worst, 1);
  EXPECT_EQ(differing, 0xFFFFu - 0xFF81u + 1);
}

// The condition codes on nested conditions: v < 0 ? (v < -2 ? 1 : 2) : 3,
// with SFPSETCC, SFPPUSHC, SFPCOMPC, SFPPOPC and SFPENCC.
TEST(Sfpu, NestedConditions) {
  const char *program = "SFPLOAD 0, 4, 0, 0\n"
                        "SFPLOADI 1, 2, 3\n"    // else value 3
                        "SFPSETCC 0, 0, 0, 0\n" // v < 0
                        "SFPPUSHC 0, 0, 0, 0\n"
                        "SFPIADD 2, 0, 2, 1\n"  // t = v + 2, cc = t < 0
                        "SFPLOADI 1, 2, 1\n"
                        "SFPCOMPC 0, 0, 0, 0\n"
                        "SFPLOADI 1, 2, 2\n"
                        "SFPPOPC 0, 0, 0, 0\n"
                        "SFPENCC 0, 0, 0, 0\n"
                        "SFPSTORE 1, 4, 0, 0\n";
  for (int arch : {kWormhole, kBlackhole}) {
    std::vector<uint32_t> out = runFp32(
        arch, program, {uint32_t(-5), uint32_t(-2), uint32_t(-1), 0, 7});
    EXPECT_EQ(out, (std::vector<uint32_t>{1, 2, 2, 3, 3}));
  }
}

// Wormhole's two's complement <-> sign-magnitude modes (12) at -2^31:
// 0x80000000 stays 0x80000000 on the store (no signed overflow).
TEST(Sfpu, Mode12AtTheMostNegativeWord) {
  std::vector<uint32_t> out =
      runFp32(kWormhole, "SFPLOAD 0, 4, 0, 0\nSFPSTORE 0, 12, 0, 0\n",
              {0x80000000, 0xFFFFFFFF, 5});
  EXPECT_EQ(out, (std::vector<uint32_t>{0x80000000, 0x80000001, 5}));
  out = runFp32(kWormhole, "SFPLOAD 0, 12, 0, 0\nSFPSTORE 0, 4, 0, 0\n",
                {0x80000000, 0x80000001, 5});
  EXPECT_EQ(out, (std::vector<uint32_t>{0, 0xFFFFFFFF, 5}));
}

// Partial groups: lanes past the count read 0 and are not written; state
// persists from group to group.
TEST(Sfpu, GroupsCarryStateAndPartialGroupsWriteOnlyTheirLanes) {
  // L1 counts the groups: every lane adds 1 per group.
  std::vector<uint32_t> out =
      runFp32(kWormhole, "SFPIADD 1, 1, 1, 5\nSFPSTORE 1, 4, 0, 0\n",
              std::vector<uint32_t>(70, 0));
  for (size_t i = 0; i < out.size(); ++i)
    EXPECT_EQ(out[i], uint32_t(i / 32 + 1)) << i;
}

// Every refusal names the line and the rule; nothing is written.
TEST(Sfpu, RefusalsNameTheLineAndTheRule) {
  struct Case {
    int arch;
    const char *text;
    int dest;
    const char *says;
  } cases[] = {
      {kWormhole, "SFPFOO 1, 2", 0, "line 1: unknown mnemonic 'SFPFOO'"},
      {kWormhole, "INCRWC 0, 2, 0, 0", 0, "unknown mnemonic 'INCRWC'"},
      {kWormhole, "\n\nSFPMAD 0, 1, 2, 3", 0,
       "line 3: SFPMAD takes 5 operands, got 4"},
      {kWormhole, "SFPMAD 0, 1, 2, 3, 0, 0", 0, "takes 5 operands, got 6"},
      {kWormhole, "SFPLOADI 0, 0, 0x10000", 0,
       "imm16 = 0x10000 does not fit in its 16 bits"},
      {kWormhole, "SFPLOADI 0, 0, -1", 0, "is not a non-negative integer"},
      {kWormhole, "SFPLOADI 0, 0, 12abc", 0, "is not a non-negative integer"},
      {kWormhole, "SFPLOADMACRO 0, 0, 0, 0", 0,
       "set TT_METAL_DISABLE_SFPLOADMACRO=1"},
      {kWormhole, "SFPLE 0, 1, 0, 1", 0, "SFPLE: opcode=0x96"},
      {kWormhole, "SFPMAD 0, 1, 2, 9, 0", 0, "lreg_dest=9"},
      {kWormhole, "SFPMAD 0, 1, 2, 3, 1", 0,
       "reserved bit set in instr_mod1=1"},
      {kWormhole, "SFPLOAD 0, 1, 0, 0", 0, "instr_mod0=1"},
      {kWormhole, "SFPLOAD 0, 0, 0, 2", 0, "dest_reg_addr must be 0"},
      {kWormhole, "SFPLOAD 12, 0, 0, 0", 0, "instruction template load"},
      {kWormhole, "SFPMAD 0x10, 1, 2, 3, 0", 0, "invalid opcode bits set"},
      {kWormhole, "SFPSHFT2 0, 1, 0, 4", 0,
       "SUBVEC_SHFLSHR1 should not be used on Wormhole"},
      {kWormhole, "SFPCAST 1, 0, 1", 0,
       "stochastic rounding is explicitly out of scope"},
      {kBlackhole, "SFPCAST 1, 0, 2", 0, "should be replaced by SFPABS"},
      {kWormhole, "SFP_STOCH_RND 2, 0, 0, 0, 0, 1", 0,
       "invalid opcode bits set"},
      {kWormhole, "SFP_STOCH_RND 1, 0, 0, 0, 0, 1", 0, "rnd_mode=1"},
      {kBlackhole, "SFP_STOCH_RND 1, 0, 0, 0, 0, 1", 0, "rnd_mode=1"},
      {kWormhole, "SFPPOPC 0, 0, 0, 0", 0, "line 1: SFPPOPC: CC stack underflow"},
      {kWormhole,
       "SFPPUSHC 0,0,0,0\nSFPPUSHC 0,0,0,0\nSFPPUSHC 0,0,0,0\n"
       "SFPPUSHC 0,0,0,0\nSFPPUSHC 0,0,0,0\nSFPPUSHC 0,0,0,0\n"
       "SFPPUSHC 0,0,0,0\nSFPPUSHC 0,0,0,0\nSFPPUSHC 0,0,0,0",
       0, "line 9: SFPPUSHC: CC stack overflow"},
      {kWormhole, "SFPENCC 0, 0, 0, 10\nSFPSETCC 0, 0, 0, 0", 0,
       "line 2: SFPSETCC: cc_en=0"},
      {kWormhole, "SFPMOV 0, 15, 0, 0\nSFPCONFIG 0, 12, 0", 0,
       "line 2: SFPCONFIG: instr_mod1=0"},
      {kWormhole, "SFPMOV 0, 15, 0, 0\nSFPCONFIG 0, 12, 0", 0,
       "instr_mod1=0: l_regs[0]: lane[1] mismatch with lane[0]"},
      {kWormhole, "SFPLOAD 0, 0, 0, 0\nSFPSETCC 0, 0, 0, 0\nSFPMAD 0, 1, 2, 12, 0",
       0, "line 3: SFPMAD: inst=0x840012c0: not all lanes enabled: mask=0x0"},
      {kWormhole, "SFPCONFIG 4, 15, 1\nSFPMAD 0, 1, 2, 5, 0", 0,
       "line 2: SFPMAD: TEN-2932"},
      {kWormhole, "SFPLOAD 0, 2, 0, 0", 0,
       "instr_mod0=2 addresses a 16-bit Dest cell"},
      {kWormhole, "SFPSTORE 0, 3, 0, 0", 1,
       "instr_mod0=3 addresses a 32-bit Dest value"},
      {kWormhole, "init:\nSFPNOP\ninit:\n", 0, "line 3: 'init:' out of place"},
      {kWormhole, "SFPNOP\nbody:\n", 0, "line 2: 'body:' out of place"},
      {kWormhole, "SFPLOADI 0, 2, 1\nSFPSTORE 0, 4, 0, 0\nSFPPOPC 0, 0, 0, 0",
       0, "CC stack underflow (group 0, elements 0-31; D88)"},
      {kWormhole, "init:\nSFPLOAD 0, 0, 0, 0\nbody:\nSFPNOP", 0,
       "line 2: SFPLOAD in init: the init runs before the first group"},
      {kWormhole, "init:\nSFPPOPC 0, 0, 0, 0", 0,
       "CC stack underflow (init; D88)"},
      {2, "SFPNOP", 0, "unknown architecture 2"},
      {kWormhole, "SFPNOP", 3, "unknown Dest kind 3"},
  };
  for (const Case &c : cases) {
    std::string error = refusalOf(c.arch, c.text, c.dest);
    EXPECT_NE(error.find(c.says), std::string::npos)
        << c.text << "\n  said: " << error << "\n  expected: " << c.says;
  }
  // Nothing written on a refusal in a later group.
  SfpuProgram program;
  std::string error;
  ASSERT_TRUE(parseSfpuProgram(kWormhole,
                               "SFPLOADI 0, 2, 7\nSFPSTORE 0, 4, 0, 0\n"
                               "SFPPOPC 0, 0, 0, 0\n",
                               program, error));
  std::vector<uint32_t> in(64, 1), out(64, 5);
  EXPECT_FALSE(
      runSfpuProgram(program, kDestFp32, in.data(), 64, out.data(), error));
  EXPECT_EQ(out, std::vector<uint32_t>(64, 5));
  // A null buffer with a count.
  EXPECT_FALSE(runSfpuProgram(program, kDestFp32, nullptr, 4, out.data(),
                              error));
  EXPECT_NE(error.find("null buffer"), std::string::npos) << error;
}

// The named ops' texts parse on both architectures, and exp refuses an
// fp32 Dest (its LLK body there is SFPI code, D87).
TEST(Sfpu, NamedOps) {
  EXPECT_EQ(sfpuOpNumber("exp"), 0);
  EXPECT_EQ(sfpuOpNumber("exp_approx"), 1);
  EXPECT_EQ(sfpuOpNumber("gelu"), -1);
  EXPECT_EQ(sfpuOpName(-1), nullptr);
  EXPECT_EQ(sfpuOpName(2), nullptr);
  EXPECT_EQ(sfpuOpName(1 << 30), nullptr);
  std::string error;
  uint32_t value = 0x3F800000, out;
  EXPECT_FALSE(runSfpuOp(kWormhole, 0, kDestFp32, &value, 1, &out, error));
  EXPECT_NE(error.find("D87"), std::string::npos) << error;
  EXPECT_FALSE(runSfpuOp(kWormhole, 1, kDestFp32, &value, 1, &out, error));
  for (int arch : {kWormhole, kBlackhole}) {
    uint16_t one = 0x3F80, e = 0;
    ASSERT_TRUE(runSfpuOp(arch, 1, kDestBf16, &one, 1, &e, error)) << error;
    EXPECT_NEAR(floatOf(uint32_t(e) << 16), 2.718f, 0.15f) << std::hex << e;
  }
}
