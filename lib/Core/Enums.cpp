//===- Enums.cpp - names of the simulator's enumerations ------------------===//
#include "birsim/Core/Enums.h"

namespace birsim::core {

namespace {
constexpr const char *kMemoryReductionOpNames[] = {
#define BIRSIM_MEMORY_REDUCTION_OP(Enumerator, ...) #Enumerator,
#include "birsim/Core/MemoryReductionOps.def"
};
constexpr const char *kAluOpTypeNames[] = {
#define BIRSIM_ALU_OP_TYPE(Enumerator, ...) #Enumerator,
#include "birsim/Core/AluOpTypes.def"
};

static_assert(numberedInRowOrder({
#define BIRSIM_MEMORY_REDUCTION_OP(Enumerator, Number, ...) Number,
#include "birsim/Core/MemoryReductionOps.def"
              }),
              "MemoryReductionOps.def rows must be numbered 0..N-1");
static_assert(numberedInRowOrder({
#define BIRSIM_ALU_OP_TYPE(Enumerator, Number, ...) Number,
#include "birsim/Core/AluOpTypes.def"
              }),
              "AluOpTypes.def rows must be numbered 0..N-1");
} // namespace

const char *memoryReductionOpName(int op) {
  return op >= 0 && op < kNumMemoryReductionOps ? kMemoryReductionOpNames[op]
                                                : nullptr;
}

const char *aluOpTypeName(int aluOp) {
  return aluOp >= 0 && aluOp < kNumAluOpTypes ? kAluOpTypeNames[aluOp]
                                              : nullptr;
}

} // namespace birsim::core
