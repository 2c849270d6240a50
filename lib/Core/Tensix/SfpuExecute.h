//===- SfpuExecute.h - decoding and executing SFPU words --------*- C++ -*-===//
//
// The SFPU's state, the checks ttsim makes on an instruction word, and one
// instruction's effect on the state and the current group's Dest cells
// (docs/Semantics.md section 9 [ttsim] src/tensix.cpp @56694c8 lines
// 3392-4590, 4872-4951).
//
//===----------------------------------------------------------------------===//
#ifndef BIRSIM_LIB_CORE_TENSIX_SFPUEXECUTE_H
#define BIRSIM_LIB_CORE_TENSIX_SFPUEXECUTE_H

#include "birsim/Core/Tensix/Sfpu.h"

#include <cstdint>
#include <string>

namespace birsim::core::sfpu {

constexpr int64_t kSfpuAbsent = -1;

/// The TTI_ macros' operand lists (SfpuInstructions.def's Operands).
enum class Operands {
  LoadStore,
  LoadImmediate,
  Lut,
  Immediate16,
  Field,
  MultiplyAdd,
  StochasticRound,
  None,
  Cast,
  Config,
  LutFp32,
};

struct InstructionInfo {
  const char *name;
  unsigned opcode;
  Operands operands;
  int64_t fields[2]; ///< per TensixArch; kSfpuAbsent where it lacks it
};
/// The instruction whose mnemonic is `name`, or null.
const InstructionInfo *lookupInstruction(std::string_view name);
/// The instruction of `opcode`, or null.
const InstructionInfo *instructionOf(unsigned opcode);

/// One operand of a TTI_ macro: its name, shift and the width its _VALID
/// check allows, on `arch`.
struct OperandSlot {
  const char *name;
  unsigned shift, width;
};
/// The operand slots of `operands` on `arch`; returns how many.
unsigned operandSlots(Operands operands, int arch, OperandSlot slots[6]);

/// The SFPU's state (§9 "State"): reset values in every lane.
struct State {
  uint32_t lreg[16][32];
  uint32_t cc = 0xFFFFFFFF;
  bool ccEnabled = true;
  struct Saved {
    bool enabled;
    uint32_t cc;
  } stack[8];
  unsigned depth = 0;
  uint32_t laneConfig = 0;
  uint32_t prng[32] = {};

  State();
  /// The lanes an instruction reads and writes.
  uint32_t enabledLanes() const { return ccEnabled ? cc : 0xFFFFFFFF; }
};

/// The current group's Dest cells in ttsim's storage encoding (§9 "Lanes
/// and Dest"): 16-bit cells for a 16-bit kind, 32-bit values otherwise.
struct Group {
  bool wide;          ///< a 32-bit Dest kind
  int defaultMode;    ///< what load/store mode 0 is for the kind (D81)
  uint32_t cell[32];
};

/// A Dest element of `destKind` (TensixDest) as ttsim stores it (§9
/// "Lanes and Dest"), and back.
uint32_t storedCell(int destKind, uint32_t element);
uint32_t elementOfCell(int destKind, uint32_t cell);

/// Checks `word` as ttsim does before it executes anything that depends on
/// the state: "" when it passes, else ttsim's message.
std::string checkWord(int arch, uint32_t word);
/// Checks that a load or store of `word` suits a Dest kind of `wide`
/// cells whose mode 0 is `defaultMode` (D81): "" or the reason.
std::string checkDestAccess(uint32_t word, bool wide, int defaultMode);

/// Executes a checked `word` on `state` and `group`; false with `error`
/// for a check that depends on the state.
bool execute(int arch, uint32_t word, State &state, Group &group,
             std::string &error);

} // namespace birsim::core::sfpu

#endif // BIRSIM_LIB_CORE_TENSIX_SFPUEXECUTE_H
