//===- Sfpu.h - the Tensix SFPU, instruction-exact --------------*- C++ -*-===//
//
// The Tensix vector unit as Tenstorrent's simulator ttsim defines it
// (docs/Semantics.md section 9 [ttsim] @56694c8): 16 LRegs of 32 lanes,
// the condition codes and their stack, every instruction ttsim executes on
// Wormhole and Blackhole, programs as text, and the ttnn unary ops the LLK
// writes as instructions.
//
//===----------------------------------------------------------------------===//
#ifndef BIRSIM_CORE_TENSIX_SFPU_H
#define BIRSIM_CORE_TENSIX_SFPU_H

#include "birsim/Core/Tensix.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace birsim::core {

/// The SFPU's multiply-add `x * y + z` on fp32 words, as `arch`'s FMA model
/// computes it (§9 "The FMA models").
uint32_t sfpuFma(int arch, uint32_t x, uint32_t y, uint32_t z);

/// One instruction of a program: its 32-bit word as the TTI_ macro encodes
/// it, and the text line it came from (1-based).
struct SfpuInstruction {
  uint32_t word;
  unsigned line;
};

/// A parsed program (§9 "Programs as text"): `init` runs once, `body` once
/// per group of 32 lanes.
struct SfpuProgram {
  int arch = 0;
  std::vector<SfpuInstruction> init, body;
};

/// Parses `text` for `arch`: every line's mnemonic, operand count and
/// ranges, and every check ttsim makes on the word alone. On failure
/// returns false with `error` naming the line and the problem.
bool parseSfpuProgram(int arch, std::string_view text, SfpuProgram &program,
                      std::string &error);

/// Runs `program` over `count` Dest values of `destKind` (TensixDest) from
/// `destIn` into `destOut` (may be `destIn`): element 32 g + i is lane i of
/// group g (D80); a last partial group's missing lanes read 0 and are not
/// written. On failure (a check that depends on the state, or a load or
/// store mode the Dest kind cannot take, D81) returns false with `error`
/// and writes nothing.
bool runSfpuProgram(const SfpuProgram &program, int destKind,
                    const void *destIn, size_t count, void *destOut,
                    std::string &error);

/// The ttnn unary ops whose LLK body is instructions (SfpuOps.def): the
/// op's number by name, or -1; its name, or null.
int sfpuOpNumber(std::string_view name);
const char *sfpuOpName(int op);
/// Runs op `op` as the LLK runs it on `arch` (its init once, its body per
/// group); false with `error` for an op, arch or Dest kind it lacks.
bool runSfpuOp(int arch, int op, int destKind, const void *destIn,
               size_t count, void *destOut, std::string &error);

} // namespace birsim::core

#endif // BIRSIM_CORE_TENSIX_SFPU_H
