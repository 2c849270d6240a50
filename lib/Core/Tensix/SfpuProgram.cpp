//===- SfpuProgram.cpp - SFPU programs from text, and the named ops -------===//
//
// docs/Semantics.md section 9, "Programs as text" (D82) and "The named
// ops": parsing once into instruction words, then running the init once
// and the body per group of 32 lanes over a Dest array (D80, D81).
//
//===----------------------------------------------------------------------===//
#include "SfpuExecute.h"

#include <cstring>
#include <iterator>
#include <mutex>

namespace birsim::core {

using sfpu::Group;
using sfpu::State;

namespace {

std::string lineError(unsigned line, std::string_view what) {
  return "line " + std::to_string(line) + ": " + std::string(what);
}

bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\r'; }

/// The next operand of `text` from `at`: decimal or 0x hex; false when the
/// token is not one.
bool readOperand(std::string_view text, size_t &at, uint64_t &value,
                 std::string_view &token) {
  size_t start = at;
  while (at < text.size() && !isSpace(text[at]) && text[at] != ',')
    ++at;
  token = text.substr(start, at - start);
  std::string_view digits = token;
  unsigned base = 10;
  if (digits.size() > 2 && digits[0] == '0' &&
      (digits[1] == 'x' || digits[1] == 'X')) {
    digits.remove_prefix(2);
    base = 16;
  }
  if (digits.empty() || digits.size() > 16)
    return false;
  value = 0;
  for (char ch : digits) {
    unsigned digit;
    if (ch >= '0' && ch <= '9')
      digit = unsigned(ch - '0');
    else if (base == 16 && ch >= 'a' && ch <= 'f')
      digit = unsigned(ch - 'a' + 10);
    else if (base == 16 && ch >= 'A' && ch <= 'F')
      digit = unsigned(ch - 'A' + 10);
    else
      return false;
    if (value > (UINT64_MAX - digit) / base)
      return false;
    value = value * base + digit;
  }
  return true;
}

/// One instruction line (no comment, trimmed): the word the TTI_ macro
/// encodes, checked as ttsim checks it.
bool parseInstruction(int arch, std::string_view text, unsigned line,
                      SfpuInstruction &out, std::string &error) {
  size_t at = 0;
  while (at < text.size() && !isSpace(text[at]))
    ++at;
  std::string_view mnemonic = text.substr(0, at);
  const sfpu::InstructionInfo *info = sfpu::lookupInstruction(mnemonic);
  if (!info) {
    error = lineError(line, "unknown mnemonic '" + std::string(mnemonic) +
                                "': expected an SFPU instruction (TTI_ "
                                "macro name without TTI_, D82)");
    return false;
  }
  sfpu::OperandSlot slots[6];
  unsigned expected = sfpu::operandSlots(info->operands, arch, slots);
  uint32_t word = info->opcode << 24;
  unsigned count = 0;
  uint64_t address = 0; // SFPLOAD's and SFPSTORE's dest_reg_addr
  while (true) {
    while (at < text.size() && (isSpace(text[at]) || text[at] == ','))
      ++at;
    if (at >= text.size())
      break;
    uint64_t value;
    std::string_view token;
    if (!readOperand(text, at, value, token)) {
      error = lineError(line, std::string(info->name) + ": operand '" +
                                  std::string(token) +
                                  "' is not a non-negative integer "
                                  "(decimal or 0x hex)");
      return false;
    }
    if (count < expected) {
      const sfpu::OperandSlot &slot = slots[count];
      if (value >> slot.width) {
        error = lineError(line, std::string(info->name) + ": " + slot.name +
                                    " = " + std::string(token) +
                                    " does not fit in its " +
                                    std::to_string(slot.width) + " bits");
        return false;
      }
      word |= uint32_t(value) << slot.shift;
      if (std::string_view(slot.name) == "dest_reg_addr")
        address = value;
    }
    ++count;
  }
  if (count != expected) {
    error = lineError(line, std::string(info->name) + " takes " +
                                std::to_string(expected) + " operands, got " +
                                std::to_string(count));
    return false;
  }
  // D82: address 0 is the current group; the runner advances Dest.
  if ((info->opcode == 0x70 || info->opcode == 0x72) && address) {
    error = lineError(line, std::string(info->name) +
                                ": dest_reg_addr must be 0, the current "
                                "group (docs/Decisions.md D82)");
    return false;
  }
  std::string refusal = sfpu::checkWord(arch, word);
  if (!refusal.empty()) {
    error = lineError(line, std::string(info->name) + ": " + refusal);
    return false;
  }
  out = {word, line};
  return true;
}

/// The Dest kinds the runner takes (D81): a row of kTensixDestTable, its
/// cells 32-bit or 16-bit, and what load/store mode 0 is there.
bool destKindOf(int destKind, bool &wide, int &defaultMode, size_t &bytes) {
  if (destKind < 0 || destKind >= int(std::size(kTensixDestTable)))
    return false;
  const TensixDestInfo &info = kTensixDestTable[destKind];
  bytes = info.storageBytes;
  wide = bytes == 4;
  defaultMode = wide ? 3 : info.exponentBits == 8 ? 2 : 1;
  return true;
}

/// An architecture of Tensix.def, else false with the message.
bool checkArch(int arch, std::string &error) {
  if (tensixArchName(arch))
    return true;
  error = "unknown architecture " + std::to_string(arch) +
          ": expected 0 (wormhole) or 1 (blackhole)";
  return false;
}

bool runInstructions(int arch, const std::vector<SfpuInstruction> &code,
                     State &state, Group &group, std::string &error) {
  for (const SfpuInstruction &instruction : code)
    if (!sfpu::execute(arch, instruction.word, state, group, error)) {
      error = lineError(instruction.line,
                        std::string(sfpu::instructionOf(instruction.word >> 24)
                                        ->name) +
                            ": " + error);
      return false;
    }
  return true;
}

struct NamedOp {
  const char *name;
  int number;
  unsigned destKinds;
  const char *text[2];
};
constexpr NamedOp kNamedOps[] = {
#define BIRSIM_SFPU_OP(Name, Number, DestKinds, WormholeText, BlackholeText)   \
  {#Name, Number, DestKinds, {WormholeText, BlackholeText}},
#include "SfpuOps.def"
};
constexpr int kNumNamedOps = int(std::size(kNamedOps));

} // namespace

bool parseSfpuProgram(int arch, std::string_view text, SfpuProgram &program,
                      std::string &error) {
  if (!checkArch(arch, error))
    return false;
  program = SfpuProgram{};
  program.arch = arch;
  std::vector<SfpuInstruction> *section = &program.body;
  bool sawInit = false, sawBody = false;
  unsigned line = 0;
  for (size_t start = 0; start <= text.size();) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos)
      end = text.size();
    std::string_view content = text.substr(start, end - start);
    start = end + 1;
    ++line;
    if (content.find('\0') != std::string_view::npos) {
      error = lineError(line, "the text holds a NUL character");
      return false;
    }
    if (size_t hash = content.find('#'); hash != std::string_view::npos)
      content = content.substr(0, hash);
    while (!content.empty() && isSpace(content.front()))
      content.remove_prefix(1);
    while (!content.empty() && isSpace(content.back()))
      content.remove_suffix(1);
    if (content.empty())
      continue;
    if (content == "init:" || content == "body:") {
      bool init = content == "init:";
      // Instructions before any header are the body: no header may follow.
      if ((init && (sawInit || sawBody)) || (!init && sawBody) ||
          (!sawInit && !sawBody && !program.body.empty())) {
        error = lineError(line, "'" + std::string(content) +
                                    "' out of place: a program is an "
                                    "optional init: section, then body:");
        return false;
      }
      (init ? sawInit : sawBody) = true;
      section = init ? &program.init : &program.body;
      continue;
    }
    SfpuInstruction instruction;
    if (!parseInstruction(arch, content, line, instruction, error))
      return false;
    unsigned opcode = instruction.word >> 24;
    if (section == &program.init && (opcode == 0x70 || opcode == 0x72)) {
      error = lineError(line, std::string(opcode == 0x70 ? "SFPLOAD"
                                                         : "SFPSTORE") +
                                  " in init: the init runs before the first "
                                  "group and has no Dest values "
                                  "(docs/Decisions.md D90)");
      return false;
    }
    section->push_back(instruction);
  }
  return true;
}

bool runSfpuProgram(const SfpuProgram &program, int destKind,
                    const void *destIn, size_t count, void *destOut,
                    std::string &error) {
  Group group{};
  size_t bytes;
  if (!destKindOf(destKind, group.wide, group.defaultMode, bytes)) {
    error = "unknown Dest kind " + std::to_string(destKind) +
            ": expected 0 (fp32), 1 (bf16) or 2 (fp16)";
    return false;
  }
  if (Status s = checkBuffers(destOut, destIn, count, bytes); !s.ok()) {
    error = s.message();
    return false;
  }
  for (const auto *code : {&program.init, &program.body})
    for (const SfpuInstruction &instruction : *code) {
      std::string refusal = sfpu::checkDestAccess(
          instruction.word, group.wide, group.defaultMode);
      if (!refusal.empty()) {
        error = lineError(instruction.line, refusal);
        return false;
      }
    }
  // Results are staged: a refusal in any group writes nothing (D88).
  std::vector<char> staged(count * bytes);
  auto *in = static_cast<const unsigned char *>(destIn);
  auto loadGroup = [&](size_t g) {
    for (unsigned lane = 0; lane < 32; ++lane) {
      size_t i = 32 * g + lane;
      uint32_t value = 0;
      if (i < count) {
        std::memcpy(&value, in + i * bytes, bytes);
        value = sfpu::storedCell(destKind, value);
      }
      group.cell[lane] = value;
    }
  };
  State state; // the init touches no Dest (D90): no group is loaded for it
  if (!runInstructions(program.arch, program.init, state, group, error)) {
    error += " (init; D88)";
    return false;
  }
  size_t groups = (count + 31) / 32;
  for (size_t g = 0; g < groups; ++g) {
    loadGroup(g);
    if (!runInstructions(program.arch, program.body, state, group, error)) {
      error += " (group " + std::to_string(g) + ", elements " +
               std::to_string(32 * g) + "-" + std::to_string(32 * g + 31) +
               "; D88)";
      return false;
    }
    for (unsigned lane = 0; lane < 32 && 32 * g + lane < count; ++lane) {
      uint32_t value = sfpu::elementOfCell(destKind, group.cell[lane]);
      std::memcpy(&staged[(32 * g + lane) * bytes], &value, bytes);
    }
  }
  if (count)
    std::memcpy(destOut, staged.data(), count * bytes);
  return true;
}

int sfpuOpNumber(std::string_view name) {
  for (const NamedOp &op : kNamedOps)
    if (name == op.name)
      return op.number;
  return -1;
}

const char *sfpuOpName(int op) {
  return op >= 0 && op < kNumNamedOps ? kNamedOps[op].name : nullptr;
}

bool runSfpuOp(int arch, int op, int destKind, const void *destIn,
               size_t count, void *destOut, std::string &error) {
  if (!sfpuOpName(op)) {
    error = "unknown SFPU op " + std::to_string(op);
    return false;
  }
  if (!checkArch(arch, error))
    return false;
  const NamedOp &named = kNamedOps[op];
  bool wide;
  int defaultMode;
  size_t bytes;
  if (!destKindOf(destKind, wide, defaultMode, bytes) ||
      !(named.destKinds >> destKind & 1)) {
    error = std::string(named.name) + " has no instruction-written LLK body "
            "for Dest kind " + std::to_string(destKind) +
            " (docs/Decisions.md D87)";
    return false;
  }
  // Each op's text is parsed once per architecture.
  static SfpuProgram programs[kNumNamedOps][2];
  static std::once_flag parsed;
  std::call_once(parsed, [] {
    for (int k = 0; k < kNumNamedOps; ++k)
      for (int a = 0; a < 2; ++a) {
        std::string ignored;
        bool ok = parseSfpuProgram(a, kNamedOps[k].text[a], programs[k][a],
                                   ignored);
        (void)ok; // SfpuOps.def's texts parse: Sfpu.NamedOpsParse
      }
  });
  return runSfpuProgram(programs[op][arch], destKind, destIn, count, destOut,
                        error);
}

} // namespace birsim::core
